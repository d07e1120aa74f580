# Leave trees a clean-up must survive: 3000 nested directories of 50-character names in /box and in /tmp (paths
# of ~150,000 characters, far past PATH_MAX), a directory and a file of mode 000, odd names (a newline, bytes
# that are not UTF-8, a leading dash), and a symbolic link to the root. Prints "built" when done.
import os
for top in ("/box", "/tmp"):
    os.chdir(top)
    for i in range(3000):
        name = f"{i:05d}" + "d" * 45
        os.mkdir(name)
        os.chdir(name)
    open("leaf", "w").write("deep")
    os.chdir(top)
    os.mkdir("locked")
    open("locked/inside", "w").write("x")
    open("unreadable", "w").write("x")
    os.chmod("unreadable", 0)
    os.chmod("locked", 0)
    open("new\nline", "w").write("x")
    open(b"\xff\xfe-not-utf8".decode("utf-8", "surrogateescape"), "w").write("x")
    open("-rf", "w").write("x")
    os.symlink("/", "root-link")
print("built")
