"""Crucible's relay for an interactive run whose trusted program talks over FIFOs (a CMS Communication manager).

Trusted code: it runs in the trusted program's box only, never in a candidate's (src/engine/interactive.ts).
Usage: python3 crucible_relay.py N STDIN_FILE HEAD -- COMMAND...

Makes 2N FIFOs in a directory of this box's own /tmp and starts COMMAND with the FIFOs' paths after its first HEAD
items (the program and, for an interpreted one, its interpreter's arguments and script), before the rest:
    PROGRAM U0_TO_M M_TO_U0 ... U{N-1}_TO_M M_TO_U{N-1} ARGS...
(CMS's Communication manager arguments: per contestant process, the FIFO it reads the contestant from, then the
one it writes to), with STDIN_FILE as its stdin and this box's stderr as its stderr. The candidates are in boxes
of their own; what they write and read crosses through Crucible as framed data on this process's stdin and stdout:

    [u8 channel][u32 little-endian length][bytes], a length of 0 ending that channel.

Crucible -> relay: channel i < N carries what candidate i wrote (written into U{i}_TO_M; its end closes it).
relay -> Crucible: channel i < N carries what the program wrote into M_TO_U{i}; channel 255 its stdout.
The relay exits with the program's status, or ends by the signal that ended it.
"""
import os
import queue
import signal
import struct
import sys
import threading
import time

OUT = 255
HEADER = struct.Struct('<BI')
JOIN_SECONDS = 2.0


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class Relay:
    def __init__(self, count):
        self.count = count
        self.lock = threading.Lock()
        self.queues = [queue.SimpleQueue() for _ in range(count)]
        directory = '/tmp/crucible-channels'
        os.mkdir(directory, 0o700)
        self.to_program = [f'{directory}/u{i}_to_m' for i in range(count)]
        self.from_program = [f'{directory}/m_to_u{i}' for i in range(count)]
        for path in self.to_program + self.from_program:
            os.mkfifo(path, 0o600)

    def send(self, channel, data):
        """One frame to Crucible; a Crucible that stopped reading ends nothing here."""
        try:
            with self.lock:
                write_all(1, HEADER.pack(channel, len(data)) + data)
        except OSError:
            pass

    def start(self, command, head, stdin_file):
        """Fork and exec the program (before any thread exists); returns its pid and its stdout's read end."""
        fifos = [path for pair in zip(self.to_program, self.from_program) for path in pair]
        argv = [*command[:head], *fifos, *command[head:]]
        out_read, out_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                stdin = os.open(stdin_file, os.O_RDONLY)
                os.dup2(stdin, 0)
                os.dup2(out_write, 1)
                os.closerange(3, 1 << 16)
                signal.signal(signal.SIGPIPE, signal.SIG_DFL)
                os.execv(argv[0], argv)
            finally:
                os._exit(127)
        os.close(out_write)
        return pid, out_read

    def writer(self, i):
        """Candidate i's bytes into U{i}_TO_M, once the program opens it."""
        try:
            fd = os.open(self.to_program[i], os.O_WRONLY)
        except OSError:
            return
        try:
            while True:
                data = self.queues[i].get()
                if not data:
                    break
                write_all(fd, data)
        except OSError:
            pass
        finally:
            os.close(fd)

    def reader(self, channel, path_or_fd):
        """The program's bytes (M_TO_U{i}, or its stdout) to Crucible, then the channel's end."""
        try:
            fd = os.open(path_or_fd, os.O_RDONLY) if isinstance(path_or_fd, str) else path_or_fd
        except OSError:
            return
        try:
            while True:
                data = os.read(fd, 1 << 16)
                if not data:
                    break
                self.send(channel, data)
        except OSError:
            pass
        finally:
            os.close(fd)
        self.send(channel, b'')

    def demux(self):
        """Crucible's frames to the writers; at its end every channel ends."""
        frames = sys.stdin.buffer
        while True:
            header = frames.read(HEADER.size)
            if len(header) < HEADER.size:
                break
            channel, length = HEADER.unpack(header)
            data = frames.read(length)
            if len(data) < length:
                break
            if channel < self.count:
                self.queues[channel].put(data)
        for q in self.queues:
            q.put(b'')


def main():
    count, stdin_file, head, separator, *command = sys.argv[1:]
    if separator != '--' or not 0 < int(head) <= len(command):
        sys.stderr.write('usage: crucible_relay.py N STDIN_FILE HEAD -- COMMAND...\n')
        os._exit(2)
    relay = Relay(int(count))
    pid, out = relay.start(command, int(head), stdin_file)
    readers = [threading.Thread(target=relay.reader, args=(OUT, out), daemon=True)]
    readers += [threading.Thread(target=relay.reader, args=(i, path), daemon=True) for i, path in enumerate(relay.from_program)]
    threads = readers + [threading.Thread(target=relay.writer, args=(i,), daemon=True) for i in range(relay.count)]
    threads.append(threading.Thread(target=relay.demux, daemon=True))
    for thread in threads:
        thread.start()
    _, status = os.waitpid(pid, 0)
    # A reader still waiting for the program to open its FIFO is let through to the FIFO's end; then what the
    # program wrote before it ended reaches Crucible.
    for path in relay.from_program:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
    deadline = time.monotonic() + JOIN_SECONDS
    for thread in readers:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


if __name__ == '__main__':
    main()
