/*
 * devrites-landlock: run one program under a Landlock policy, or not at all.
 *
 *   devrites-landlock [--rw DIR]... [--rw-file FILE]... [--no-tcp] [--unset-prefix P]... [--abi] -- PROG [ARG]...
 *   devrites-landlock --plain [--unset-prefix P]... -- PROG [ARG]...
 *   devrites-landlock --cow ROOT --cow-at MNT [--unset-prefix P]... -- PROG [ARG]...
 *
 * The second and third forms apply no Landlock policy: they prepare what bubblewrap is then started in (PROG is
 * bubblewrap), so that the sandbox needs no shell of its own before the leaf's (see "Launch modes" below).
 *
 * Policy (see docs/sandbox-landlock.md):
 *   - every file-system right this kernel's Landlock ABI knows is handled, so each is denied unless a rule
 *     below grants it (REFER from ABI 2, TRUNCATE from ABI 3, IOCTL_DEV from ABI 5);
 *   - `/`: read files, list directories, execute (reads are left open by design: the sandbox guards writes);
 *   - each --rw DIR (an existing directory, absolute path, not holding .git or .devrites, which Landlock
 *     could not keep read-only inside it): every handled right beneath it;
 *   - each --rw-file FILE (an existing regular file with one link, absolute path): read, write, truncate -
 *     that file only; nothing may be created, removed, linked or renamed beside it;
 *   - /dev/null: write and truncate (`>/dev/null` must work). /dev/tty is NOT granted: a leaf has no business
 *     writing to the user's terminal, and its stdio (a pipe or the host's own pty) is inherited, which
 *     Landlock never re-checks;
 *   - --no-tcp: binding and connecting TCP sockets are handled with no rule, so both are denied (ABI 4).
 *     Landlock's TCP rules do not see MPTCP sockets nor TCP Fast Open (sendto with MSG_FASTOPEN), both of
 *     which were observed connecting on Linux 6.18 / ABI 7, so --no-tcp also has the seccomp filter below
 *     refuse socket(2) for any family but AF_UNIX (EACCES: no TCP, MPTCP, UDP, raw or vsock socket at all)
 *     and io_uring (EPERM; it can create sockets without socket(2)). x86-64 and arm64 only; elsewhere
 *     --no-tcp refuses;
 *   - a seccomp filter (x86-64 and arm64; elsewhere skipped) for what Landlock does not control: chown
 *     (EPERM), extended attributes (EOPNOTSUPP), inode flags such as immutable (EPERM) and chmod adding
 *     set-user/group-ID bits (EPERM) - changes a root leaf could otherwise leave behind outside its scope -
 *     and TIOCSTI/TIOCLINUX (EPERM), which type into an inherited terminal (Landlock never re-checks one).
 *     A system call through another ABI (i386 via int 0x80, x32) kills the process. Plain chmod and utimes
 *     stay open (Landlock cannot see them; see the limits in the docs);
 *   - ABI 6 and later: signals and abstract unix sockets are scoped to the sandbox (nothing outside it can be
 *     signalled or reached through an abstract socket), whatever the flags;
 *   - then PR_SET_NO_NEW_PRIVS, landlock_restrict_self, the seccomp filter, the --unset-prefix variables
 *     removed, every descriptor above 2 closed,
 *     execvp.
 *
 * Launch modes (no Landlock; --rw, --rw-file, --no-tcp and --abi are refused with them):
 *   - --plain: only the steps every mode ends with (below);
 *   - --cow ROOT --cow-at MNT: a copy-on-write view of ROOT for PROG, as `unshare --user --map-root-user
 *     --mount` followed by two mounts would make it: a user and mount namespace of its own (setgroups denied,
 *     the caller's uid and gid mapped to 0), every mount made private (MS_REC|MS_PRIVATE: nothing propagates
 *     back), a tmpfs on MNT holding `u` and `w`, and an overlay with lowerdir=ROOT, upperdir=MNT/u,
 *     workdir=MNT/w mounted over ROOT. Writes under ROOT then land in the tmpfs and vanish with the last
 *     process of the namespace; ROOT itself is never written. ROOT and MNT must be existing directories given
 *     by their real path (no symbolic link, `.` or `..` on the way), neither inside the other, without a
 *     character overlayfs reads as a separator (`,` `:` `\` or a line break). PROG must be a sandbox that
 *     drops the namespace's capabilities before anything else runs (bubblewrap --cap-drop ALL), or the
 *     program could unmount the overlay and write ROOT.
 * Every mode ends with: each --unset-prefix P removes every environment variable whose name starts with P
 * (a non-empty P without `=`); every descriptor above 2 is closed; then execvp.
 *
 * Fail closed: on any failure (a bad argument, a kernel without Landlock or too old for what is asked, a
 * syscall error) it prints "devrites-landlock: <what failed>: <reason>" and exits 125 without running PROG.
 * ABI 3 is the minimum: below it truncate(2) is not controlled, so files outside could be emptied.
 * --abi prints the kernel's Landlock ABI version and exits 0 (125 when Landlock is unavailable).
 *
 * Depends on libc and the kernel's UAPI headers (seccomp, filter, audit and, when present, landlock); every
 * Landlock constant an older header may lack is defined here with its UAPI value, and the Landlock structures
 * are declared here with the UAPI layout (older headers lack fields).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#if defined(__has_include)
#if __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#endif
#endif

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2
#ifndef LANDLOCK_ACCESS_FS_EXECUTE
#define LANDLOCK_ACCESS_FS_EXECUTE (1ULL << 0)
#define LANDLOCK_ACCESS_FS_WRITE_FILE (1ULL << 1)
#define LANDLOCK_ACCESS_FS_READ_FILE (1ULL << 2)
#define LANDLOCK_ACCESS_FS_READ_DIR (1ULL << 3)
#define LANDLOCK_ACCESS_FS_REMOVE_DIR (1ULL << 4)
#define LANDLOCK_ACCESS_FS_REMOVE_FILE (1ULL << 5)
#define LANDLOCK_ACCESS_FS_MAKE_CHAR (1ULL << 6)
#define LANDLOCK_ACCESS_FS_MAKE_DIR (1ULL << 7)
#define LANDLOCK_ACCESS_FS_MAKE_REG (1ULL << 8)
#define LANDLOCK_ACCESS_FS_MAKE_SOCK (1ULL << 9)
#define LANDLOCK_ACCESS_FS_MAKE_FIFO (1ULL << 10)
#define LANDLOCK_ACCESS_FS_MAKE_BLOCK (1ULL << 11)
#define LANDLOCK_ACCESS_FS_MAKE_SYM (1ULL << 12)
#endif
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

/* struct landlock_ruleset_attr as of ABI 6 (the kernel accepts the larger size with zeroed tail fields). */
struct ll_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};
/* struct landlock_path_beneath_attr (packed in the UAPI). */
struct ll_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

#define EXIT_REFUSED 125
#define MIN_ABI 3
#define FS_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_EXECUTE)
#define FS_FILE_WRITE (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_READ_FILE)

static void fail(const char *what, const char *reason) {
  fprintf(stderr, "devrites-landlock: %s: %s\n", what, reason);
  exit(EXIT_REFUSED);
}

static void fail_errno(const char *what, const char *path) {
  const char *reason = strerror(errno);
  if (path == NULL) fail(what, reason);
  fprintf(stderr, "devrites-landlock: %s %s: %s\n", what, path, reason);
  exit(EXIT_REFUSED);
}

static int landlock_abi(void) {
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 0) {
    if (errno == ENOSYS) fail("landlock", "not built into this kernel (ENOSYS)");
    if (errno == EOPNOTSUPP) fail("landlock", "disabled on this kernel (EOPNOTSUPP; add it to lsm= at boot)");
    fail_errno("landlock_create_ruleset(VERSION)", NULL);
  }
  return (int)abi;
}

/* Every file-system right the given ABI knows. */
static uint64_t fs_rights(int abi) {
  uint64_t r = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
               LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
               LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
               LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
               LANDLOCK_ACCESS_FS_MAKE_SYM;
  if (abi >= 2) r |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) r |= LANDLOCK_ACCESS_FS_TRUNCATE;
  if (abi >= 5) r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
  return r;
}

enum kind { DIR_TREE, WRITABLE_TREE, ONE_FILE, CHAR_DEVICE };

/* Grant `rights` beneath `path`, which must be of the given kind (ONE_FILE: a regular file with one link). */
static void allow_path(int ruleset, const char *path, uint64_t rights, enum kind kind, const char *flag) {
  if (path[0] != '/') {
    fprintf(stderr, "devrites-landlock: %s %s: not an absolute path\n", flag, path);
    exit(EXIT_REFUSED);
  }
  /* O_NOFOLLOW: a symbolic link as the last component is rejected below (its own inode is not the target). */
  int fd = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) fail_errno(flag, path);
  struct stat st;
  if (fstat(fd, &st) != 0) fail_errno(flag, path);
  const char *wrong = kind <= WRITABLE_TREE ? (S_ISDIR(st.st_mode) ? NULL : "not a directory")
                      : kind == CHAR_DEVICE ? (S_ISCHR(st.st_mode) ? NULL : "not a character device")
                                            : (S_ISREG(st.st_mode) ? NULL : "not a regular file");
  if (wrong != NULL) {
    fprintf(stderr, "devrites-landlock: %s %s: %s (a symbolic link is refused)\n", flag, path, wrong);
    exit(EXIT_REFUSED);
  }
  /* Landlock grants, it never carves out: a .git or .devrites inside a writable tree would be writable too */
  static const char *const protected_names[] = {".git", ".devrites"};
  for (size_t k = 0; kind == WRITABLE_TREE && k < sizeof protected_names / sizeof protected_names[0]; k++) {
    struct stat inner;
    if (fstatat(fd, protected_names[k], &inner, AT_SYMLINK_NOFOLLOW) == 0) {
      fprintf(stderr, "devrites-landlock: %s %s: holds %s, which would become writable (grant the files instead)\n",
              flag, path, protected_names[k]);
      exit(EXIT_REFUSED);
    }
  }
  if (kind == ONE_FILE && st.st_nlink != 1) {
    /* another name of the same inode would be written too */
    fprintf(stderr, "devrites-landlock: %s %s: has %lu hard links; only a file with one may be writable\n", flag,
            path, (unsigned long)st.st_nlink);
    exit(EXIT_REFUSED);
  }
  struct ll_path_beneath_attr attr = {.allowed_access = rights, .parent_fd = fd};
  if (syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &attr, 0) != 0)
    fail_errno("landlock_add_rule", path);
  close(fd);
}

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#endif
#ifndef SYS_removexattrat
#define SYS_removexattrat 466
#endif
#ifndef SYS_file_setattr
#define SYS_file_setattr 469
#endif
#define FS_IOC_SETFLAGS_64 0x40086602U   /* _IOW('f', 2, long) */
#define FS_IOC_SETFLAGS_32 0x40046602U   /* _IOW('f', 2, int) */
#define FS_IOC_FSSETXATTR_ 0x401c5820U   /* _IOW('X', 32, struct fsxattr) */

/*
 * The seccomp half of the policy, for what Landlock does not control (see the header): ownership, extended
 * attributes, inode flags and set-user/group-ID bits are never changed; with --no-tcp, only unix sockets and
 * no io_uring. A small BPF program of self-contained blocks, each ending in a return for its system call.
 */
static struct sock_filter filter[128];
static unsigned short filter_len;

static void emit(struct sock_filter ins) {
  if (filter_len >= sizeof filter / sizeof filter[0]) fail("seccomp", "filter too long (a bug)");
  filter[filter_len++] = ins;
}
#define LOAD(field) emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field)))
#define RET(v) emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (v)))
#define IF_NR(nr, skip) emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, (skip)))

static void deny_nr(long nr, unsigned int ret) { IF_NR(nr, 1); RET(ret); }

/* nr: refuse with `ret` when argument `arg` (its low 32 bits) has any of `bits` / equals `value`. */
static void deny_arg_bits(long nr, int arg, unsigned int bits, unsigned int ret) {
  IF_NR(nr, 4);
  LOAD(args[arg]);
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, bits, 0, 1));
  RET(ret);
  RET(SECCOMP_RET_ALLOW);
}

static void install_filter(int no_tcp) {
#ifdef NATIVE_ARCH
  const unsigned int eperm = SECCOMP_RET_ERRNO | EPERM;
  LOAD(arch);
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0));
  RET(SECCOMP_RET_KILL_PROCESS); /* i386 through int 0x80 on x86-64: another table, another socketcall */
  LOAD(nr);
#ifdef __x86_64__
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U /* __X32_SYSCALL_BIT */, 0, 1));
  RET(SECCOMP_RET_KILL_PROCESS);
  deny_nr(SYS_chown, eperm);
  deny_nr(SYS_lchown, eperm);
  deny_arg_bits(SYS_chmod, 1, S_ISUID | S_ISGID, eperm);
#endif
  deny_nr(SYS_fchown, eperm);
  deny_nr(SYS_fchownat, eperm);
  deny_arg_bits(SYS_fchmod, 1, S_ISUID | S_ISGID, eperm);
  deny_arg_bits(SYS_fchmodat, 2, S_ISUID | S_ISGID, eperm);
  deny_arg_bits(SYS_fchmodat2, 2, S_ISUID | S_ISGID, eperm);
  const long xattr[] = {SYS_setxattr, SYS_lsetxattr, SYS_fsetxattr, SYS_setxattrat,
                        SYS_removexattr, SYS_lremovexattr, SYS_fremovexattr, SYS_removexattrat};
  for (size_t k = 0; k < sizeof xattr / sizeof xattr[0]; k++)
    deny_nr(xattr[k], SECCOMP_RET_ERRNO | EOPNOTSUPP); /* what tools read as "not supported here" */
  deny_nr(SYS_file_setattr, eperm);
  /* ioctls: inode flags (immutable, append-only, ...); typing into an inherited terminal (TIOCSTI, and
     TIOCLINUX's selection paste), which would run input in the user's shell once the leaf is gone */
  IF_NR(SYS_ioctl, 8);
  LOAD(args[1]);
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC_SETFLAGS_64, 4, 0));
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC_SETFLAGS_32, 3, 0));
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC_FSSETXATTR_, 2, 0));
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 1, 0));
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 0, 1));
  RET(eperm);
  RET(SECCOMP_RET_ALLOW);
  if (no_tcp) {
    deny_nr(SYS_io_uring_setup, eperm); /* io_uring can create sockets without socket(2) */
    deny_nr(SYS_io_uring_enter, eperm);
    deny_nr(SYS_io_uring_register, eperm);
    IF_NR(SYS_socket, 4);
    LOAD(args[0]); /* the family */
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1));
    RET(SECCOMP_RET_ALLOW);
    RET(SECCOMP_RET_ERRNO | EACCES);
  }
  RET(SECCOMP_RET_ALLOW);
  struct sock_fprog prog = {.len = filter_len, .filter = filter};
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) fail_errno("seccomp", NULL);
#else
  if (no_tcp) fail("--no-tcp", "the socket filter is built for x86-64 and arm64 only");
#endif
}

/* Close every descriptor above stderr: nothing opened outside reaches the program. */
static void close_inherited(void) {
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
  DIR *d = opendir("/proc/self/fd");
  if (d == NULL) fail_errno("close_range and opendir /proc/self/fd", NULL);
  int self = dirfd(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char *end;
    long fd = strtol(e->d_name, &end, 10);
    if (*end == '\0' && end != e->d_name && fd > 2 && fd != self) close((int)fd);
  }
  closedir(d);
}

/* Remove every variable whose name starts with one of `prefixes` (names collected first: unsetenv moves environ). */
static void unset_prefixes(char **prefixes, int count) {
  if (count == 0) return;
  size_t n = 0;
  for (char **e = environ; *e != NULL; e++) n++;
  char **names = calloc(n + 1, sizeof *names);
  if (names == NULL) fail("--unset-prefix", "out of memory");
  size_t found = 0;
  for (char **e = environ; *e != NULL; e++) {
    const char *eq = strchr(*e, '=');
    size_t len = eq != NULL ? (size_t)(eq - *e) : strlen(*e);
    for (int k = 0; k < count; k++) {
      size_t plen = strlen(prefixes[k]);
      if (len >= plen && strncmp(*e, prefixes[k], plen) == 0) {
        names[found] = strndup(*e, len);
        if (names[found++] == NULL) fail("--unset-prefix", "out of memory");
        break;
      }
    }
  }
  for (size_t k = 0; k < found; k++) {
    if (unsetenv(names[k]) != 0) fail_errno("unsetenv", names[k]);
    free(names[k]);
  }
  free(names);
}

/* An existing directory named by its real path, safe inside an overlayfs option string. */
static void check_cow_dir(const char *flag, const char *path) {
  if (path[0] != '/') {
    fprintf(stderr, "devrites-landlock: %s %s: not an absolute path\n", flag, path);
    exit(EXIT_REFUSED);
  }
  if (strpbrk(path, ",:\\\n\r") != NULL) {
    fprintf(stderr, "devrites-landlock: %s %s: has a character overlayfs cannot take (`,` `:` `\\` or a line break)\n",
            flag, path);
    exit(EXIT_REFUSED);
  }
  char *real = realpath(path, NULL);
  if (real == NULL) fail_errno(flag, path);
  if (strcmp(real, path) != 0) {
    fprintf(stderr, "devrites-landlock: %s %s: not its real path (%s: a symbolic link, `.`, `..` or a trailing "
                    "slash on the way)\n", flag, path, real);
    exit(EXIT_REFUSED);
  }
  free(real);
  struct stat st;
  if (stat(path, &st) != 0) fail_errno(flag, path);
  if (!S_ISDIR(st.st_mode)) {
    fprintf(stderr, "devrites-landlock: %s %s: not a directory\n", flag, path);
    exit(EXIT_REFUSED);
  }
}

/* Whether `inner` is `outer` or lies beneath it (both real paths). */
static int path_within(const char *outer, const char *inner) {
  size_t n = strlen(outer);
  if (n == 1) return 1; /* "/" */
  return strncmp(outer, inner, n) == 0 && (inner[n] == '\0' || inner[n] == '/');
}

static void write_proc(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail_errno("open", path);
  size_t n = strlen(text);
  if (write(fd, text, n) != (ssize_t)n) fail_errno("write", path);
  if (close(fd) != 0) fail_errno("close", path);
}

/* --cow: the copy-on-write view of `root` (see the header). */
static void make_cow(const char *root, const char *mnt) {
  check_cow_dir("--cow", root);
  check_cow_dir("--cow-at", mnt);
  if (path_within(root, mnt) || path_within(mnt, root)) {
    fprintf(stderr, "devrites-landlock: --cow %s --cow-at %s: one lies inside the other\n", root, mnt);
    exit(EXIT_REFUSED);
  }
  char upper[PATH_MAX], work[PATH_MAX], opts[4096], map[64];
  if (snprintf(upper, sizeof upper, "%s/u", mnt) >= (int)sizeof upper ||
      snprintf(work, sizeof work, "%s/w", mnt) >= (int)sizeof work)
    fail("--cow-at", "path too long");
  if (snprintf(opts, sizeof opts, "lowerdir=%s,upperdir=%s,workdir=%s", root, upper, work) >= (int)sizeof opts)
    fail("--cow", "path too long for the overlay's options");
  uid_t uid = getuid();
  gid_t gid = getgid();
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) fail_errno("unshare(CLONE_NEWUSER|CLONE_NEWNS)", NULL);
  write_proc("/proc/self/setgroups", "deny");
  snprintf(map, sizeof map, "0 %lu 1\n", (unsigned long)uid);
  write_proc("/proc/self/uid_map", map);
  snprintf(map, sizeof map, "0 %lu 1\n", (unsigned long)gid);
  write_proc("/proc/self/gid_map", map);
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fail_errno("mount --make-rprivate", "/");
  if (mount("devrites-cow", mnt, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700") != 0)
    fail_errno("mount tmpfs on", mnt);
  if (mkdir(upper, 0777) != 0) fail_errno("mkdir", upper); /* 0777 & ~umask, as mkdir(1) makes it */
  if (mkdir(work, 0700) != 0) fail_errno("mkdir", work);
  if (mount("devrites-cow", root, "overlay", 0, opts) != 0) fail_errno("mount overlay on", root);
}

int main(int argc, char **argv) {
  int i = 1, no_tcp = 0, want_abi = 0, plain = 0, landlock_opts = 0, n_prefixes = 0;
  const char *cow = NULL, *cow_at = NULL;
  char *prefixes[16];
  /* first pass: validate the arguments before touching the kernel */
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) break;
    if (strcmp(a, "--rw") == 0 || strcmp(a, "--rw-file") == 0) {
      if (i + 1 >= argc || argv[i + 1][0] == '\0') fail(a, "needs a path");
      i++;
      landlock_opts = 1;
    } else if (strcmp(a, "--cow") == 0 || strcmp(a, "--cow-at") == 0) {
      if (i + 1 >= argc || argv[i + 1][0] == '\0') fail(a, "needs a path");
      const char **slot = a[5] == '\0' ? &cow : &cow_at;
      if (*slot != NULL) fail(a, "given twice");
      *slot = argv[++i];
    } else if (strcmp(a, "--unset-prefix") == 0) {
      if (i + 1 >= argc || argv[i + 1][0] == '\0' || strchr(argv[i + 1], '=') != NULL)
        fail(a, "needs a non-empty variable name prefix without `=`");
      if (n_prefixes >= (int)(sizeof prefixes / sizeof prefixes[0])) fail(a, "too many prefixes");
      prefixes[n_prefixes++] = argv[++i];
    } else if (strcmp(a, "--plain") == 0) {
      plain = 1;
    } else if (strcmp(a, "--no-tcp") == 0) {
      landlock_opts = 1;
      no_tcp = 1;
    } else if (strcmp(a, "--abi") == 0) {
      want_abi = 1;
    } else {
      fprintf(stderr, "devrites-landlock: unknown argument %s (usage: devrites-landlock [--rw DIR]... "
                      "[--rw-file FILE]... [--no-tcp] [--unset-prefix P]... [--abi] -- PROG [ARG]...; or --plain "
                      "or --cow ROOT --cow-at MNT, with [--unset-prefix P]..., -- PROG [ARG]...)\n", a);
      exit(EXIT_REFUSED);
    }
  }
  if ((cow == NULL) != (cow_at == NULL)) fail(cow == NULL ? "--cow-at" : "--cow", "needs --cow and --cow-at together");
  int launch = plain || cow != NULL;
  if (plain && cow != NULL) fail("--plain", "cannot be combined with --cow");
  if (launch && (landlock_opts || want_abi))
    fail(plain ? "--plain" : "--cow", "applies no Landlock policy: --rw, --rw-file, --no-tcp and --abi cannot be "
                                      "combined with it");
  if (!want_abi && i >= argc) fail("arguments", "missing -- before the program");
  if (!want_abi && i + 1 >= argc) fail("arguments", "no program after --");
  if (launch) {
    if (cow != NULL) make_cow(cow, cow_at);
    unset_prefixes(prefixes, n_prefixes);
    close_inherited();
    execvp(argv[i + 1], &argv[i + 1]);
    fail_errno("execvp", argv[i + 1]);
  }
  int abi = landlock_abi();
  if (want_abi) {
    printf("%d\n", abi);
    return 0;
  }
  if (abi < MIN_ABI) {
    fprintf(stderr, "devrites-landlock: landlock: ABI %d is too old; ABI %d (Linux 6.2) is needed to control "
                    "truncation\n", abi, MIN_ABI);
    exit(EXIT_REFUSED);
  }
  if (no_tcp && abi < 4) {
    fprintf(stderr, "devrites-landlock: --no-tcp: needs Landlock ABI 4 (Linux 6.7); this kernel has ABI %d\n", abi);
    exit(EXIT_REFUSED);
  }

  uint64_t all = fs_rights(abi);
  struct ll_ruleset_attr ra = {.handled_access_fs = all};
  if (no_tcp) ra.handled_access_net = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
  if (abi >= 6) ra.scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL;
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &ra, sizeof ra, 0U);
  if (ruleset < 0) fail_errno("landlock_create_ruleset", NULL);

  allow_path(ruleset, "/", FS_READ, DIR_TREE, "read rule");
  allow_path(ruleset, "/dev/null", LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE, CHAR_DEVICE,
             "write rule");
  for (int j = 1; j < i; j++) {
    if (strcmp(argv[j], "--rw") == 0) allow_path(ruleset, argv[++j], all, WRITABLE_TREE, "--rw");
    else if (strcmp(argv[j], "--rw-file") == 0) allow_path(ruleset, argv[++j], FS_FILE_WRITE, ONE_FILE, "--rw-file");
  }

  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail_errno("prctl(PR_SET_NO_NEW_PRIVS)", NULL);
  if (syscall(SYS_landlock_restrict_self, ruleset, 0U) != 0) fail_errno("landlock_restrict_self", NULL);
  install_filter(no_tcp);
  unset_prefixes(prefixes, n_prefixes);
  close_inherited(); /* also closes the ruleset */
  execvp(argv[i + 1], &argv[i + 1]);
  fail_errno("execvp", argv[i + 1]);
  return EXIT_REFUSED;
}
