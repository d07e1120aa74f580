# Store a secret in the kernel's user and session keyrings (stdin "store"), or look for one a previous run stored
# (stdin "read"). Prints what the kernel answered for each step.
import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
SYS_add_key, SYS_keyctl = 248, 250
KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING = -4, -3
KEYCTL_SEARCH, KEYCTL_READ = 10, 11
def answer(rc):
    return "ok" if rc >= 0 else errno.errorcode[ctypes.get_errno()]
mode = sys.stdin.read().strip()
for name, ring in (("user", KEY_SPEC_USER_KEYRING), ("session", KEY_SPEC_SESSION_KEYRING)):
    if mode == "store":
        rc = libc.syscall(SYS_add_key, b"user", b"crucible-secret", b"expected output", 15, ring)
        print(f"store {name} {answer(rc)}")
    else:
        rc = libc.syscall(SYS_keyctl, KEYCTL_SEARCH, ring, b"user", b"crucible-secret", 0)
        print(f"find {name} {answer(rc)}")
        if rc >= 0:
            buf = ctypes.create_string_buffer(64)
            libc.syscall(SYS_keyctl, KEYCTL_READ, rc, buf, 64)
            print("read", buf.value.decode())
