/** The A a loader's resources show: it leaks nothing. */
public class A {
    public A() { }
}
