# Try to reach a public address (and DNS). Prints what happened; must be "blocked".
import socket
results = []
for target in [("1.1.1.1", 80), ("8.8.8.8", 53)]:
    try:
        s = socket.create_connection(target, timeout=2)
        results.append("connected")
        s.close()
    except OSError as e:
        results.append("blocked")
try:
    socket.getaddrinfo("example.com", 80)
    results.append("resolved")
except OSError:
    results.append("blocked")
print(" ".join(results))
