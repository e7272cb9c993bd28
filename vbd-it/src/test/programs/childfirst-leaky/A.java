/** Publishes {@code this} from its constructor, before any subclass constructor stores a thing. */
public class A {
    public A() {
        System.getProperties().put("childfirst.published", this);
    }
}
