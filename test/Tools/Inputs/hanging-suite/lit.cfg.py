# A suite of one test that never ends, under the fa suites' time limit
# (test/time_limit.py); test/Tools/time-limit.test runs it.
import os
import sys

import lit.formats

config.name = "hanging"
config.suffixes = [".test"]
config.test_format = lit.formats.ShTest(True)
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = lit_config.params["out"]

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.dont_write_bytecode = True
from time_limit import apply_time_limit
apply_time_limit(lit_config)
