/** A final field, so that vbd judges whether {@code Base}'s constructor may leak before it is stored. */
public class Sub extends Base {
    public final int id;

    public Sub(int id) { this.id = id; }
}
