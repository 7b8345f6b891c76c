"""The per-test time limit that every fa lit suite applies (issue 35).

A test that hangs (a kernel bug that spins an emulated thread, a deadlock in
the runner) must fail with its name, not stall the whole run until CI's own
limit. lit kills a test that runs longer than `maxIndividualTestTime` and
reports it as TIMEOUT, which scripts/test.sh counts as a failure.

The limit is FA_TEST_TIMEOUT seconds (default 600: the slowest test, the
random programs, took 94 s in a full run on two cores and 136 s with
another job running; docs/Robustness.md lists the slowest). 0 turns it off. lit's --timeout overrides it. lit needs
psutil to kill a test's children (Debian: python3-psutil, which
scripts/setup.sh installs); without it the suite runs unbounded, with a
warning.
"""
import os

DEFAULT_SECONDS = 600


def apply_time_limit(lit_config):
    value = os.environ.get("FA_TEST_TIMEOUT", str(DEFAULT_SECONDS))
    try:
        seconds = int(value)
    except ValueError:
        lit_config.fatal(f"FA_TEST_TIMEOUT must be a whole number of seconds, not '{value}'")
    if seconds < 0:
        lit_config.fatal("FA_TEST_TIMEOUT must be >= 0 seconds")
    supported, why = lit_config.maxIndividualTestTimeIsSupported
    if seconds and not supported:
        lit_config.warning(
            "no per-test time limit (install python3-psutil): " + why)
        return
    lit_config.maxIndividualTestTime = seconds
