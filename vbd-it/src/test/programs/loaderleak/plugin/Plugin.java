package plugin;

public class Plugin {
    private final Part[] parts = new Part[4];
    private int total;

    public Plugin() {
        for (int i = 0; i < parts.length; i++) parts[i] = new Part(i);
    }

    public int run() {
        for (Part p : parts) total += p.weight();
        return total;
    }
}
