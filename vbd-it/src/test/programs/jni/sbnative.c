/*
 * The native half of the store-buffering program: plain stores and loads on a Java array's
 * elements through the pointer GetPrimitiveArrayCritical returns. volatile keeps the compiler
 * from reordering them, so what shows is the processor's own store buffer, with no fence between
 * the store and the load: the JVM's rewrite cannot reach here.
 */
#include <jni.h>

JNIEXPORT void JNICALL Java_Main_actor(JNIEnv *env, jclass cls, jintArray sa, jint n, jint mine, jintArray ra) {
    (void) cls;
    volatile jint *s = (*env)->GetPrimitiveArrayCritical(env, sa, NULL);
    if (s == NULL) return; /* OutOfMemoryError pending */
    jint *r = (*env)->GetPrimitiveArrayCritical(env, ra, NULL);
    if (r != NULL) {
        for (jint i = 0; i < n; i++) {
            s[2 * i + mine] = 1;
            r[i] = s[2 * i + 1 - mine];
        }
        (*env)->ReleasePrimitiveArrayCritical(env, ra, r, 0);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, sa, (void *) s, 0);
}
