"""Crucible's session box: a trusted agent (pid 1 of a session's box) and the REPL drivers it starts."""
