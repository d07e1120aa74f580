"""Length-prefixed JSON frames on the C <-> T (or C <-> zygote) call channel.

A frame is a 4-byte big-endian length followed by that many bytes of UTF-8 JSON. The reader on the trusted
side caps the length, so a hostile candidate cannot make it allocate without bound.
"""
import os
import struct

from . import pyvalue

MAX_FRAME_BYTES = 64 * 1024 * 1024
_HEADER = struct.Struct(">I")
# What FrameReader.feed asks of one read: a reports fits in one, and a buffer under glibc's mmap threshold (128 KiB)
# is not mapped, faulted in and unmapped again on every read as a 1 MiB one was.
READ_CHUNK_BYTES = 64 * 1024


class ChannelClosed(Exception):
    pass


class FrameTooLarge(Exception):
    pass


def encode_frame(obj):
    """The bytes of one frame carrying `obj` (length header + PyValue JSON)."""
    data = pyvalue.dumps(obj).encode("utf-8")
    return _HEADER.pack(len(data)) + data


def write_frame(fd, obj):
    buf = memoryview(encode_frame(obj))
    while buf:
        n = os.write(fd, buf)
        buf = buf[n:]


def _read_exact(fd, n):
    chunks = []
    while n > 0:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise ChannelClosed()
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(fd, max_bytes=MAX_FRAME_BYTES):
    """Blocking read of one frame; returns the parsed JSON (strict)."""
    (n,) = _HEADER.unpack(_read_exact(fd, 4))
    if n > max_bytes:
        raise FrameTooLarge(n)
    return pyvalue.loads(_read_exact(fd, n).decode("utf-8", errors="strict"))


class FrameReader:
    """Incremental frame reader for a non-blocking fd driven by select (zygote side)."""

    def __init__(self, fd, max_bytes=MAX_FRAME_BYTES):
        self.fd = fd
        self.max_bytes = max_bytes
        self.buf = bytearray()
        self.closed = False

    def feed(self):
        """Read what is available. Returns False on EOF."""
        try:
            chunk = os.read(self.fd, READ_CHUNK_BYTES)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if not chunk:
            self.closed = True
            return False
        self.buf += chunk
        return True

    def next_raw(self):
        """The bytes of the next complete frame, or None. Raises FrameTooLarge."""
        if len(self.buf) < 4:
            return None
        (n,) = _HEADER.unpack(bytes(self.buf[:4]))
        if n > self.max_bytes:
            raise FrameTooLarge(n)
        if len(self.buf) < 4 + n:
            return None
        data = bytes(self.buf[4:4 + n])
        del self.buf[:4 + n]
        return data
