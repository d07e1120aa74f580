# Session step (python): fake the end of the step, then at once fork a child that burns CPU forever, and go on
# burning in the REPL too. Nothing of a session may run between its steps: both must be stopped before the
# step's answer leaves the server (before issue #23 a child forked this late escaped the freeze).
import os

os.write(4, b'{"exitCode": 0}\n')
if os.fork() == 0:
    while True:
        pass
while True:
    pass
