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

/* Defines a class from bytes through the JNI, which the JVM does without calling any Java code. */
JNIEXPORT jclass JNICALL Java_Main_defineNatively(JNIEnv *env, jclass cls, jstring name, jobject loader, jbyteArray bytes) {
    (void) cls;
    const char *n = (*env)->GetStringUTFChars(env, name, NULL);
    if (n == NULL) return NULL;
    jsize len = (*env)->GetArrayLength(env, bytes);
    jbyte *b = (*env)->GetByteArrayElements(env, bytes, NULL);
    jclass c = NULL;
    if (b != NULL) {
        c = (*env)->DefineClass(env, n, loader, b, len);
        (*env)->ReleaseByteArrayElements(env, bytes, b, JNI_ABORT);
    }
    (*env)->ReleaseStringUTFChars(env, name, n);
    return c;
}
