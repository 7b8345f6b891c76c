# lit configuration of the GoogleTest unit tests.
import os
import sys

import lit.formats

config.name = "FA-Unit"
config.suffixes = []
config.test_exec_root = config.unit_test_dir
config.test_source_root = config.unit_test_dir
config.test_format = lit.formats.GoogleTest(".", "UnitTests")

# The suite's time limit (test/time_limit.py): a hanging test fails.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "test"))
sys.dont_write_bytecode, kept = True, sys.dont_write_bytecode
from time_limit import apply_time_limit
sys.dont_write_bytecode = kept
sys.path.pop(0)
apply_time_limit(lit_config)
