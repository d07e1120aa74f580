/*
 * session-agent: pid 1 of one session's long-lived box (src/sandbox/session-box.ts). Trusted; holds the box's link to
 * the host (stdin/stdout) and never runs a line of model code. Written in C so that an idle session's box costs
 * its REPL and little more (a Python agent was ~6 MiB per box).
 *
 * Theory of operation:
 * - Start-up: refuse unless pid 1 (init of the box's pid namespace: no signal from inside kills or stops it);
 *   take the "session" sub-cgroup's cgroup.procs descriptors (made and limited by Crucible outside the box,
 *   CRUCIBLE_SUBGROUPS); set no_new_privs, drop every capability and become non-dumpable (nothing in the box can
 *   ptrace us or open the files of /proc/1/fd, i.e. the host link); ignore catchable signals. The seccomp filter was
 *   installed on us by bubblewrap and is inherited by everything the box runs.
 * - The REPL (argv[1]: python | bash | sqlite; harness/python/crucible_session/repl.py or bash) is a child that
 *   joins the sub-cgroup before it execs, so every process of model code is counted and bounded there. Its
 *   stdout and stderr are pipes to us; it reads one step on fd 3 (8-byte length + text; bash: text + NUL) and
 *   reports the step's end on fd 4 (one line, `{"exitCode": n, "extra": ...}`), after a `{"ready": true}` line.
 *   fd 4 is a datagram socket with SO_PASSCRED on our end: a report counts only if the kernel says the REPL's
 *   own process sent it (a forked copy of the REPL cannot end a step it did not run).
 * - Host link, in:  `step <outputBytes> <codeBytes>\n<code>`.
 *   Host link, out: one JSON line per message: `{"op": "ready"}`, then per step `{"op": "result", "ended":
 *   "done" | "died" | "output", "exitCode", "signal", "restarted", "replacedBefore" (null, or how the REPL of the
 *   previous step had ended: `{"exitCode", "signal"}`), "killedProcesses", "report" (the REPL's line, as a string:
 *   Node parses it, so a forged line cannot break this protocol), "stdoutTruncated", "stderrTruncated",
 *   "stdoutBytes", "stderrBytes"}` followed by exactly stdoutBytes bytes of stdout and stderrBytes of stderr, raw
 *   (no escaping: what a step printed costs Node its own size once, not six times as JSON escapes of control
 *   bytes would).
 * - "died": the REPL ended (Crucible killed its group for a limit, or it exited); "output": a stream passed
 *   outputBytes. Both: every other process of the box is killed and reaped, a fresh REPL started ("restarted").
 *   "done": processes the step left running are killed (they do not outlive it).
 * - A REPL that ended between steps (it faked the end of a step, then exited or was killed by a process it left)
 *   is noticed when the next step starts: the box is swept and a fresh REPL runs that step ("replacedBefore").
 * - Never a busy loop: the step waits in poll() with a 50 ms timeout, only on descriptors still open (a stream at
 *   EOF or a report socket in error is dropped from the set), and the REPL's end is known from any waitpid() of
 *   the agent (one reaper records it), so an REPL that died while a sweep reaped it still ends its step.
 * - Stdin EOF ends the agent, and with it (pid 1) the box.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY_TIMEOUT_MS 30000
#define REPL_SCRIPT "/crucible/harness/python/crucible_session/repl.py"

static const char BASH_LOOP[] =
    "__crucible_step_loop() { local __s; printf '{\"ready\": true}\\n' >&4; while IFS= read -r -d '' __s <&3; do "
    "eval \"$__s\" </dev/null; printf '{\"exitCode\": %d}\\n' \"$?\" >&4; done; }; cd /box; __crucible_step_loop";

static const char *kind;
static int procs_fds[3] = {-1, -1, -1};
static int link_in = -1, link_out = -1;

struct repl {
    pid_t pid;
    int out, err, code, res;
    /* Set by reap() when the REPL's own process has been waited for, with its wait status. */
    int dead, status;
};

/* The one REPL of the box (every waitpid() of the agent goes through reap(), which records its end here). */
static struct repl repl = {.pid = -1, .out = -1, .err = -1, .code = -1, .res = -1};

struct buf {
    char *data;
    size_t len, cap;
};

static void die(const char *why) {
    dprintf(link_out >= 0 ? link_out : 1, "{\"op\": \"fatal\", \"reason\": \"%s: errno %d\"}\n", why, errno);
    _exit(2);
}

static void buf_add(struct buf *b, const char *data, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) die("out of memory");
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = 0;
}

/* Append a string literal. */
#define buf_lit(b, literal) buf_add((b), (literal), sizeof(literal) - 1)

/* Read what is available on a non-blocking fd into `b`, up to `limit` bytes in all; returns 0 at EOF. */
static int read_available(int fd, struct buf *b, size_t limit) {
    char chunk[65536];
    for (;;) {
        if (b->len >= limit) return 1;
        size_t room = limit - b->len;
        ssize_t n = read(fd, chunk, room < sizeof chunk ? room : sizeof chunk);
        if (n > 0) {
            buf_add(b, chunk, (size_t)n);
            continue;
        }
        if (n == 0) return 0;
        if (errno == EINTR) continue;
        return 1;
    }
}

/* The sub-group's cgroup.procs descriptors from CRUCIBLE_SUBGROUPS (`{"session": {"procs": [a, b, c], ...}}`). */
static void take_subgroup(void) {
    const char *spec = getenv("CRUCIBLE_SUBGROUPS");
    if (!spec) return;
    const char *procs = strstr(spec, "\"procs\"");
    if (procs) {
        const char *p = strchr(procs, '[');
        for (int i = 0; p && i < 3; i++) {
            while (*p && (*p < '0' || *p > '9')) p++;
            if (!*p) break;
            procs_fds[i] = (int)strtol(p, (char **)&p, 10);
        }
    }
    /* Every descriptor the box was handed (procs and the read-only directories) stays out of the REPL. */
    for (const char *p = spec; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            char *end;
            long fd = strtol(p, &end, 10);
            if (fd >= 5 && fd < 1024) fcntl((int)fd, F_SETFD, FD_CLOEXEC);
            p = end - 1;
        }
    }
    unsetenv("CRUCIBLE_SUBGROUPS");
}

static void drop_privileges(void) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die("no_new_privs");
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    for (int cap = 0; cap < 64; cap++) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &header, data) != 0) die("capset");
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) die("dumpable");
}

/* Pids of live processes of the box other than us and `keep` (0: none). */
static int live_others(pid_t keep, pid_t *out, int max) {
    DIR *proc = opendir("/proc");
    if (!proc) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(proc)) && n < max) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 1 || pid == keep) continue;
        char path[64], stat[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t len = read(fd, stat, sizeof stat - 1);
        close(fd);
        if (len <= 0) continue;
        stat[len] = 0;
        char *close_paren = strrchr(stat, ')');
        if (!close_paren || close_paren[1] == 0) continue;
        char state = close_paren[2];
        if (state == 'Z' || state == 'X') continue;
        out[n++] = (pid_t)pid;
    }
    closedir(proc);
    return n;
}

/* Wait for every child that has ended; the REPL's end is recorded in `repl` whoever calls this. */
static void reap(void) {
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0) return;
        if (pid == repl.pid && !repl.dead) {
            repl.dead = 1;
            repl.status = status;
        }
    }
}

/* Kill every process of the box but us and `keep` until none is left (fork bombs included); reap ours. */
static int sweep(pid_t keep) {
    pid_t pids[4096];
    int first = -1;
    for (int round = 0; round < 20000; round++) {
        int n = live_others(keep, pids, 4096);
        if (first < 0) first = n;
        reap();
        if (n == 0) return first;
        for (int i = 0; i < n; i++) kill(pids[i], SIGKILL);
        if (round > 100) usleep(1000);
        else sched_yield();
    }
    return first;
}

static void close_from(int low) {
    if (syscall(SYS_close_range, low, ~0U, 0) != 0) for (int fd = low; fd < 1024; fd++) close(fd);
}

/* Append the datagrams waiting on the report socket that the REPL itself sent; drop the others. At most 256 per
   call, so a process flooding the socket cannot hold the agent here: it returns to its poll loop. */
static void read_reports(struct repl *r, struct buf *b) {
    for (int k = 0; k < 256; k++) {
        char data[65536];
        char control[CMSG_SPACE(sizeof(struct ucred))];
        struct iovec iov = {data, sizeof data};
        struct msghdr msg = {0};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        ssize_t n = recvmsg(r->res, &msg, MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR) continue;
            return;
        }
        pid_t sender = 0;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
                struct ucred cred;
                memcpy(&cred, CMSG_DATA(c), sizeof cred);
                sender = cred.pid;
            }
        }
        if (sender == r->pid && n > 0 && b->len < (1 << 20)) buf_add(b, data, (size_t)n);
    }
}

static int start_repl(struct repl *r) {
    int out[2], err[2], code[2], res[2], go[2];
    if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(code, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) die("pipe");
    /* Reports come as datagrams with the sender's pid attached by the kernel (SO_PASSCRED): only the REPL's own
       count, never those of processes it forked (copies of it that would report a step they did not run). */
    if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, res) != 0) die("socketpair");
    int on = 1;
    if (setsockopt(res[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof on) != 0) die("SO_PASSCRED");
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        char c;
        close(go[1]);
        if (read(go[0], &c, 1) != 1) _exit(127); /* joined the group: only now may anything untrusted run */
        setsid();
        int null = open("/dev/null", O_RDWR);
        /* Out of the way of the targets first, so no dup2 below overwrites a source it still needs. */
        int moved[4] = {fcntl(out[1], F_DUPFD, 16), fcntl(err[1], F_DUPFD, 16), fcntl(code[0], F_DUPFD, 16), fcntl(res[1], F_DUPFD, 16)};
        dup2(null, 0);
        for (int i = 0; i < 4; i++) dup2(moved[i], i + 1); /* dup2 clears close-on-exec */
        close_from(5);
        for (int s = 1; s < 32; s++) signal(s, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (chdir("/box") != 0) _exit(127);
        if (strcmp(kind, "bash") == 0) {
            char *argv[] = {"/usr/bin/bash", "--norc", "--noprofile", "-c", (char *)BASH_LOOP, NULL};
            execv(argv[0], argv);
        } else {
            char *argv[] = {"/usr/bin/python3.11", "-I", "-S", "-B", REPL_SCRIPT, (char *)kind, NULL};
            execv(argv[0], argv);
        }
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    close(code[0]);
    close(res[1]);
    close(go[0]);
    char text[32];
    int len = snprintf(text, sizeof text, "%d", pid);
    for (int i = 0; i < 3; i++) {
        if (procs_fds[i] >= 0 && write(procs_fds[i], text, (size_t)len) != len) die("joining the session sub-cgroup");
    }
    if (write(go[1], "1", 1) != 1) die("go-ahead");
    close(go[1]);
    r->pid = pid;
    r->dead = 0;
    r->status = 0;
    r->out = out[0];
    r->err = err[0];
    r->code = code[1];
    r->res = res[0];
    fcntl(r->out, F_SETFL, O_NONBLOCK);
    fcntl(r->err, F_SETFL, O_NONBLOCK);
    fcntl(r->code, F_SETFL, O_NONBLOCK);
    fcntl(r->res, F_SETFL, O_NONBLOCK);
    /* Wait for the ready line, so the REPL's start-up is not counted in the first step (an REPL that ended at
       once is reported by the next step). */
    struct buf ready = {0};
    for (int waited = 0; waited < READY_TIMEOUT_MS && ready.len == 0 && !r->dead; waited += 50) {
        struct pollfd p = {r->res, POLLIN, 0};
        if (poll(&p, 1, 50) > 0) read_reports(r, &ready);
        reap();
    }
    free(ready.data);
    return 0;
}

static void close_repl(struct repl *r) {
    close(r->out);
    close(r->err);
    close(r->code);
    close(r->res);
}

/* Append `s` (n bytes) to `o` as a JSON string: quotes, backslashes and control characters escaped; other bytes
   as they are (Node decodes the line as UTF-8, invalid bytes becoming U+FFFD). */
static void json_string(struct buf *o, const char *s, size_t n) {
    buf_add(o, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            buf_add(o, e, 2);
        } else if (c < 0x20 || c == 0x7f) {
            char e[8];
            snprintf(e, sizeof e, "\\u%04x", c);
            buf_add(o, e, 6);
        } else {
            buf_add(o, (const char *)&c, 1);
        }
    }
    buf_add(o, "\"", 1);
}

static void write_all(int fd, const char *data, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, data, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return;
        }
        data += w;
        n -= (size_t)w;
    }
}

/* `{"exitCode": n, "signal": null}` or `{"exitCode": null, "signal": "SIGKILL"}` of a wait status, into `o`. */
static void status_json(struct buf *o, int status) {
    char num[96];
    if (WIFSIGNALED(status)) {
        const char *name = sigabbrev_np(WTERMSIG(status));
        snprintf(num, sizeof num, "\"exitCode\": null, \"signal\": \"SIG%s\"", name ? name : "UNKNOWN");
    } else {
        snprintf(num, sizeof num, "\"exitCode\": %d, \"signal\": null", WIFEXITED(status) ? WEXITSTATUS(status) : 0);
    }
    buf_add(o, num, strlen(num));
}

/* Replace the REPL: every process of the box killed and reaped, a fresh REPL started. */
static void replace_repl(struct repl *r) {
    sweep(0);
    close_repl(r);
    start_repl(r);
}

/* The step's text framed for the REPL (python: 8-byte little-endian length + text; bash: text + NUL). */
static struct buf frame_step(const char *code, size_t code_len) {
    struct buf framed = {0};
    if (strcmp(kind, "bash") == 0) {
        for (size_t i = 0; i < code_len; i++) if (code[i] != 0) buf_add(&framed, code + i, 1);
        buf_add(&framed, "", 1);
    } else {
        uint64_t n = code_len; /* little-endian on x86_64 */
        buf_add(&framed, (const char *)&n, 8);
        if (code_len > 0) buf_add(&framed, code, code_len);
    }
    return framed;
}

static void run_step(struct repl *r, const char *code, size_t code_len, size_t cap) {
    struct buf out = {0}, err = {0}, res = {0}, drop = {0};
    /* A REPL that ended since the last step (after faking that step's end, or killed by a process it left) is
       replaced before this step runs; the answer says how it had ended. */
    reap();
    int replaced = r->dead, replaced_status = r->status;
    if (replaced) replace_repl(r);
    /* Whatever earlier processes wrote after the previous step ended is not this step's. */
    int fds[2] = {r->out, r->err};
    for (int i = 0; i < 2; i++) {
        drop.len = 0;
        while (read_available(fds[i], &drop, 1 << 20) && drop.len > 0) drop.len = 0;
    }
    drop.len = 0;
    read_reports(r, &drop);
    free(drop.data);
    /* The step goes to the REPL as it reads it (non-blocking: a REPL that does not read cannot hold the agent). */
    struct buf framed = frame_step(code, code_len);
    size_t sent = 0;
    int out_open = 1, err_open = 1, res_open = 1;
    const char *ended = NULL;
    while (!ended) {
        struct pollfd p[4] = {
            {out_open ? r->out : -1, POLLIN, 0}, {err_open ? r->err : -1, POLLIN, 0}, {res_open ? r->res : -1, POLLIN, 0},
            {sent < framed.len ? r->code : -1, POLLOUT, 0},
        };
        poll(p, 4, 50);
        if (p[3].revents & POLLOUT) {
            ssize_t w = write(r->code, framed.data + sent, framed.len - sent);
            if (w > 0) sent += (size_t)w;
        }
        if (p[3].revents & (POLLERR | POLLHUP | POLLNVAL)) sent = framed.len; /* the REPL is gone: noticed below */
        if (p[2].revents & POLLIN) {
            read_reports(r, &res);
            if (memchr(res.data ? res.data : "", '\n', res.len)) ended = "done";
        } else if (p[2].revents & (POLLERR | POLLHUP | POLLNVAL)) {
            res_open = 0;
        }
        /* A stream at EOF (every writer gone) is dropped from the set: poll() would report it at once forever. */
        if (p[0].revents && !read_available(r->out, &out, cap + 1)) out_open = 0;
        if (p[1].revents && !read_available(r->err, &err, cap + 1)) err_open = 0;
        if (!ended && (out.len > cap || err.len > cap)) ended = "output";
        if (!ended) {
            reap();
            if (r->dead) ended = "died";
        }
    }
    free(framed.data);
    /* What the REPL wrote before it reported is already in the pipes. */
    read_available(r->out, &out, cap + 1);
    read_available(r->err, &err, cap + 1);
    if (strcmp(ended, "done") == 0 && (out.len > cap || err.len > cap)) ended = "output";
    int restarted = 0, killed = 0, status = r->status;
    if (strcmp(ended, "done") == 0) {
        killed = sweep(r->pid);
    } else {
        sweep(0);
        restarted = 1;
    }
    size_t out_len = out.len > cap ? cap : out.len, err_len = err.len > cap ? cap : err.len;
    struct buf o = {0};
    char num[200];
    buf_lit(&o, "{\"op\": \"result\", \"ended\": \"");
    buf_add(&o, ended, strlen(ended));
    buf_lit(&o, "\", ");
    if (strcmp(ended, "died") == 0) status_json(&o, status);
    else buf_lit(&o, "\"exitCode\": null, \"signal\": null");
    buf_lit(&o, ", \"replacedBefore\": ");
    if (replaced) {
        buf_lit(&o, "{");
        status_json(&o, replaced_status);
        buf_lit(&o, "}");
    } else {
        buf_lit(&o, "null");
    }
    snprintf(num, sizeof num, ", \"restarted\": %s, \"killedProcesses\": %d, \"stdoutTruncated\": %s, \"stderrTruncated\": %s, "
             "\"stdoutBytes\": %zu, \"stderrBytes\": %zu, \"report\": ",
             restarted ? "true" : "false", killed, out.len > cap ? "true" : "false", err.len > cap ? "true" : "false", out_len, err_len);
    buf_add(&o, num, strlen(num));
    if (strcmp(ended, "done") == 0) {
        char *nl = memchr(res.data, '\n', res.len);
        json_string(&o, res.data, (size_t)(nl - res.data));
    } else {
        buf_lit(&o, "null");
    }
    buf_lit(&o, "}\n");
    write_all(link_out, o.data, o.len);
    write_all(link_out, out.data ? out.data : "", out_len);
    write_all(link_out, err.data ? err.data : "", err_len);
    free(o.data);
    free(out.data);
    free(err.data);
    free(res.data);
    if (restarted) {
        close_repl(r);
        start_repl(r);
    }
}

/* Read exactly n bytes from the host link; 0 at EOF. */
static int read_exact(int fd, char *data, size_t n) {
    while (n > 0) {
        ssize_t got = read(fd, data, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;
        data += got;
        n -= (size_t)got;
    }
    return 1;
}

int main(int argc, char **argv) {
    if (getpid() != 1) {
        printf("{\"op\": \"fatal\", \"reason\": \"the session agent must be pid 1 of its box\"}\n");
        return 2;
    }
    if (argc != 2 || (strcmp(argv[1], "python") && strcmp(argv[1], "bash") && strcmp(argv[1], "sqlite"))) {
        printf("{\"op\": \"fatal\", \"reason\": \"usage: session-agent python|bash|sqlite\"}\n");
        return 2;
    }
    kind = argv[1];
    take_subgroup();
    drop_privileges();
    int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGALRM};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) signal(ignored[i], SIG_IGN);
    setenv("HOME", "/box", 1);
    /* The host link on descriptors no child inherits; 0 and 1 become /dev/null. */
    link_in = fcntl(0, F_DUPFD_CLOEXEC, 5);
    link_out = fcntl(1, F_DUPFD_CLOEXEC, 5);
    if (link_in < 0 || link_out < 0) die("host link");
    int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    close(null);
    start_repl(&repl);
    const char ready[] = "{\"op\": \"ready\"}\n";
    write_all(link_out, ready, sizeof ready - 1);
    for (;;) {
        char header[64];
        size_t n = 0;
        for (;;) {
            if (n == sizeof header - 1 || !read_exact(link_in, header + n, 1)) return 0;
            if (header[n] == '\n') break;
            n++;
        }
        header[n] = 0;
        unsigned long cap = 0, len = 0;
        if (sscanf(header, "step %lu %lu", &cap, &len) != 2 || len > (64UL << 20)) die("bad command");
        char *code = malloc(len + 1);
        if (!code || !read_exact(link_in, code, len)) return 0;
        code[len] = 0;
        run_step(&repl, code, len, cap);
        free(code);
    }
}
