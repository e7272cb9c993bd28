/** A plain field, first loaded as the superclass of {@code Sub}: while vbd judges Sub's final. */
public class Base {
    public int flag;
}
