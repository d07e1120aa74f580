"""Stub for open_r1/utils/competitive_programming/morph_client.py, which imports `load_dotenv`."""


def load_dotenv(*_args, **_kwargs):
    return False
