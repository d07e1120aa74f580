"""Stub for open_r1/utils/import_utils.py, which imports `_is_package_available` (e2b, morphcloud checks)."""
import importlib.util


def _is_package_available(name):
    """Whether `name` can be imported (transformers' returns the same truth value)."""
    return importlib.util.find_spec(name) is not None
