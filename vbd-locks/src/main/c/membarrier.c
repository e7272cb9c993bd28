/*
 * The one native piece of vbd-locks: membarrier(2) for ReservedLock's asymmetric Dekker.
 * Built by the Maven build (exec-maven-plugin in pom.xml, with the system's cc) into
 * dev/vbd/locks/native/linux-x86_64/libvbdlocks.so inside the jar.
 */
#include <jni.h>
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>

#ifndef __NR_membarrier
#error "no membarrier(2) on this platform"
#endif

#define CMD_QUERY 0
#define CMD_PRIVATE_EXPEDITED (1 << 3)
#define CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)

static long sys_membarrier(int cmd) {
    return syscall(__NR_membarrier, cmd, 0, 0);
}

/*
 * Checks that the kernel offers MEMBARRIER_CMD_PRIVATE_EXPEDITED and registers the process for it.
 * Returns 0 on success, else a positive errno (or -1 when the command is not supported).
 */
JNIEXPORT jint JNICALL Java_dev_vbd_locks_Membarrier_register0(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    long mask = sys_membarrier(CMD_QUERY);
    if (mask < 0) return errno;
    if (!(mask & CMD_PRIVATE_EXPEDITED) || !(mask & CMD_REGISTER_PRIVATE_EXPEDITED)) return -1;
    if (sys_membarrier(CMD_REGISTER_PRIVATE_EXPEDITED) != 0) return errno;
    /* one trial barrier: seccomp or a kernel quirk shows here, not in the middle of a revocation */
    if (sys_membarrier(CMD_PRIVATE_EXPEDITED) != 0) return errno;
    return 0;
}

/*
 * A full memory barrier on every CPU that runs a thread of this process: when it returns, every
 * other running thread of the process has passed a point at which its earlier stores are visible
 * to the caller and its later loads read memory afresh. Returns 0, else errno.
 */
JNIEXPORT jint JNICALL Java_dev_vbd_locks_Membarrier_barrier0(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return sys_membarrier(CMD_PRIVATE_EXPEDITED) == 0 ? 0 : errno;
}
