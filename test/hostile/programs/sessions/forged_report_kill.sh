# Session step (bash): fake the end of the step on the shell's report socket (fd 4), then kill the shell itself
# after $delay_s seconds (set by the test before this text).
printf '{"exitCode": 0}\n' >&4
sleep "$delay_s"
kill -9 $$
