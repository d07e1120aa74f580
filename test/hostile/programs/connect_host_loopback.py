# Try to reach a server the test runs on the host's loopback; the port comes on stdin.
import socket, sys
port = int(sys.stdin.readline())
for host in ["127.0.0.1", "localhost", "::1"]:
    try:
        s = socket.create_connection((host, port), timeout=2)
        s.sendall(b"escaped\n")
        print("connected", host)
        s.close()
    except OSError:
        print("blocked", host)
