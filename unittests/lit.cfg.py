# lit configuration of the GoogleTest unit tests.
import lit.formats

config.name = "FA-Unit"
config.suffixes = []
config.test_exec_root = config.unit_test_dir
config.test_source_root = config.unit_test_dir
config.test_format = lit.formats.GoogleTest(".", "UnitTests")
