# Session step (bash): fill /box, /tmp and /dev/shm with as much as each tmpfs takes, then leave the files there
# (the session then sits idle for its TTL). The files are tmpfs pages charged to the session's memory cgroup, so
# what an idle session pins is bounded by its memory limit, which admission reserves.
for dir in /box /tmp /dev/shm; do
  dd if=/dev/zero of="$dir/fill" bs=1M count=2048 2>/dev/null
done
du -sm /box /tmp /dev/shm 2>/dev/null
