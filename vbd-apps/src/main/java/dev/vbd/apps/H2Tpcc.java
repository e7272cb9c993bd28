package dev.vbd.apps;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TPC-C-like transaction mix on an embedded in-memory H2 database: new-order and payment
 * transactions, run by several threads in JDBC transactions against shared warehouse, district,
 * customer and stock rows.
 *
 * <p>{@code --size} is the number of transactions. Transaction {@code k} is drawn from its own
 * {@code Random(SEED + k)} and threads take {@code k = t, t + threads, ...}, so the set of transactions
 * does not depend on the thread count or on the interleaving, and neither do the aggregates of the
 * final state that are printed (which order gets which id does depend on the interleaving, which is
 * why only per-district counts and sums are printed).
 *
 * <p>Self-checks: money conservation (every payment adds the same amount to warehouse, district and
 * customer year-to-date totals, takes it off the customer balance and is written to history), stock
 * conservation (quantity + year-to-date equals the loaded quantity, per row), gap-free order ids per
 * district, and all of it against a ledger kept in Java of what the committed transactions did.
 */
public final class H2Tpcc extends Workload {

    private static final long SEED = 0x5EED_C0FFEEL;
    static final int WAREHOUSES = 2;
    static final int DISTRICTS = 10;
    static final int CUSTOMERS = 120;   // per district
    static final int ITEMS = 2000;
    static final long INITIAL_BALANCE = -1_000;     // cents, as in TPC-C's -10.00
    static final int INITIAL_QUANTITY = 1_000_000;  // large enough that stock never runs out

    public static void main(String[] args) {
        new H2Tpcc().main("h2", args, 2000);
    }

    /** What the committed transactions did, summed over all threads. */
    private static final class Ledger {
        final AtomicLong payments = new AtomicLong();
        final AtomicLong paymentAmount = new AtomicLong();
        final AtomicLong newOrders = new AtomicLong();
        final AtomicLong orderLines = new AtomicLong();
        final AtomicLong orderAmount = new AtomicLong();
        final AtomicLong quantity = new AtomicLong();
        final AtomicLong rolledBack = new AtomicLong();
        final AtomicLong retries = new AtomicLong();
    }

    @Override
    protected String iteration(Options options, int index) throws Exception {
        String url = "jdbc:h2:mem:tpcc" + index + ";LOCK_TIMEOUT=60000;DB_CLOSE_DELAY=-1";
        try (Connection admin = DriverManager.getConnection(url, "sa", "")) {
            load(admin);
            Ledger ledger = new Ledger();
            List<Thread> threads = new ArrayList<>();
            Throwable[] failure = new Throwable[1];
            for (int t = 0; t < options.threads(); t++) {
                int first = t;
                Thread thread = new Thread(() -> {
                    try (Connection c = DriverManager.getConnection(url, "sa", "")) {
                        c.setAutoCommit(false);
                        Terminal terminal = new Terminal(c, ledger);
                        for (int k = first; k < options.size(); k += options.threads()) {
                            terminal.run(k);
                        }
                    } catch (Throwable e) {
                        synchronized (failure) {
                            if (failure[0] == null) failure[0] = e;
                        }
                    }
                }, "h2-terminal-" + t);
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) thread.join();
            if (failure[0] != null) {
                throw new IllegalStateException("a terminal thread failed", failure[0]);
            }
            String report = verify(admin, ledger, options);
            try (Statement s = admin.createStatement()) {
                s.execute("SHUTDOWN");
            }
            return report;
        }
    }

    private static void load(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_name VARCHAR(10), w_ytd BIGINT NOT NULL)");
            s.execute("CREATE TABLE district (d_w_id INT, d_id INT, d_ytd BIGINT NOT NULL, d_next_o_id INT NOT NULL,"
                    + " PRIMARY KEY (d_w_id, d_id))");
            s.execute("CREATE TABLE customer (c_w_id INT, c_d_id INT, c_id INT, c_last VARCHAR(16),"
                    + " c_balance BIGINT NOT NULL, c_ytd_payment BIGINT NOT NULL, c_payment_cnt INT NOT NULL,"
                    + " PRIMARY KEY (c_w_id, c_d_id, c_id))");
            s.execute("CREATE TABLE item (i_id INT PRIMARY KEY, i_name VARCHAR(24), i_price BIGINT NOT NULL)");
            s.execute("CREATE TABLE stock (s_w_id INT, s_i_id INT, s_quantity INT NOT NULL, s_ytd BIGINT NOT NULL,"
                    + " s_order_cnt INT NOT NULL, PRIMARY KEY (s_w_id, s_i_id))");
            s.execute("CREATE TABLE orders (o_w_id INT, o_d_id INT, o_id INT, o_c_id INT NOT NULL,"
                    + " o_ol_cnt INT NOT NULL, PRIMARY KEY (o_w_id, o_d_id, o_id))");
            s.execute("CREATE TABLE order_line (ol_w_id INT, ol_d_id INT, ol_o_id INT, ol_number INT,"
                    + " ol_i_id INT NOT NULL, ol_quantity INT NOT NULL, ol_amount BIGINT NOT NULL,"
                    + " PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))");
            s.execute("CREATE TABLE history (h_c_w_id INT, h_c_d_id INT, h_c_id INT, h_amount BIGINT NOT NULL)");
        }
        c.setAutoCommit(false);
        Random r = new Random(SEED);
        try (PreparedStatement w = c.prepareStatement("INSERT INTO warehouse VALUES (?, ?, 0)");
             PreparedStatement d = c.prepareStatement("INSERT INTO district VALUES (?, ?, 0, 1)");
             PreparedStatement cu = c.prepareStatement("INSERT INTO customer VALUES (?, ?, ?, ?, ?, 0, 0)")) {
            for (int wid = 1; wid <= WAREHOUSES; wid++) {
                w.setInt(1, wid);
                w.setString(2, "W" + wid);
                w.executeUpdate();
                for (int did = 1; did <= DISTRICTS; did++) {
                    d.setInt(1, wid);
                    d.setInt(2, did);
                    d.executeUpdate();
                    for (int cid = 1; cid <= CUSTOMERS; cid++) {
                        cu.setInt(1, wid);
                        cu.setInt(2, did);
                        cu.setInt(3, cid);
                        cu.setString(4, lastName(r.nextInt(1000)));
                        cu.setLong(5, INITIAL_BALANCE);
                        cu.addBatch();
                    }
                    cu.executeBatch();
                }
            }
        }
        try (PreparedStatement it = c.prepareStatement("INSERT INTO item VALUES (?, ?, ?)");
             PreparedStatement st = c.prepareStatement("INSERT INTO stock VALUES (?, ?, ?, 0, 0)")) {
            for (int iid = 1; iid <= ITEMS; iid++) {
                it.setInt(1, iid);
                it.setString(2, "item-" + Integer.toString(r.nextInt(1 << 30), 36));
                it.setLong(3, 100 + r.nextInt(9901));
                it.addBatch();
                for (int wid = 1; wid <= WAREHOUSES; wid++) {
                    st.setInt(1, wid);
                    st.setInt(2, iid);
                    st.setInt(3, INITIAL_QUANTITY);
                    st.addBatch();
                }
            }
            it.executeBatch();
            st.executeBatch();
        }
        c.commit();
        c.setAutoCommit(true);
    }

    /** TPC-C's customer last names: three syllables chosen by the digits of a number. */
    static String lastName(int n) {
        String[] syl = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
        return syl[n / 100] + syl[(n / 10) % 10] + syl[n % 10];
    }

    /** One client connection running transactions; retries a transaction that lost a lock conflict. */
    private static final class Terminal {
        private final Connection c;
        private final Ledger ledger;
        private final PreparedStatement nextOrderId, bumpOrderId, price, stockUpdate, insertOrder, insertLine;
        private final PreparedStatement warehouseYtd, districtYtd, customerPay, insertHistory;

        Terminal(Connection c, Ledger ledger) throws SQLException {
            this.c = c;
            this.ledger = ledger;
            nextOrderId = c.prepareStatement("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE");
            bumpOrderId = c.prepareStatement("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?");
            price = c.prepareStatement("SELECT i_price FROM item WHERE i_id = ?");
            stockUpdate = c.prepareStatement("UPDATE stock SET s_quantity = s_quantity - ?, s_ytd = s_ytd + ?,"
                    + " s_order_cnt = s_order_cnt + 1 WHERE s_w_id = ? AND s_i_id = ?");
            insertOrder = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?)");
            insertLine = c.prepareStatement("INSERT INTO order_line VALUES (?, ?, ?, ?, ?, ?, ?)");
            warehouseYtd = c.prepareStatement("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?");
            districtYtd = c.prepareStatement("UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?");
            customerPay = c.prepareStatement("UPDATE customer SET c_balance = c_balance - ?,"
                    + " c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1"
                    + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
            insertHistory = c.prepareStatement("INSERT INTO history VALUES (?, ?, ?, ?)");
        }

        void run(int k) throws SQLException {
            for (int attempt = 0; ; attempt++) {
                Random r = new Random(SEED + k);   // the same draw on every retry
                try {
                    if (r.nextInt(100) < 50) {
                        newOrder(r);
                    } else {
                        payment(r);
                    }
                    return;
                } catch (SQLException e) {
                    c.rollback();
                    if (!retryable(e) || attempt >= 50) throw e;
                    ledger.retries.incrementAndGet();
                }
            }
        }

        private static boolean retryable(SQLException e) {
            // deadlock, lock timeout, concurrent update: H2 rolled the statement back and the
            // transaction can be run again from the start.
            int code = e.getErrorCode();
            return code == 40001 || code == 50200 || code == 90131;
        }

        private void newOrder(Random r) throws SQLException {
            int w = 1 + r.nextInt(WAREHOUSES);
            int d = 1 + r.nextInt(DISTRICTS);
            int cust = 1 + r.nextInt(CUSTOMERS);
            int lines = 5 + r.nextInt(11);
            int[] items = new int[lines];
            int[] qty = new int[lines];
            for (int i = 0; i < lines; i++) {
                items[i] = 1 + r.nextInt(ITEMS);
                qty[i] = 1 + r.nextInt(10);
            }
            // TPC-C: 1% of new-orders name an unused item and must roll back.
            boolean invalid = r.nextInt(100) == 0;
            if (invalid) items[lines - 1] = ITEMS + 1;
            // Stock rows are locked in item order, so two new-orders cannot deadlock on them.
            Integer[] order = new Integer[lines];
            for (int i = 0; i < lines; i++) order[i] = i;
            Arrays.sort(order, (a, b) -> items[a] != items[b] ? Integer.compare(items[a], items[b]) : Integer.compare(a, b));

            nextOrderId.setInt(1, w);
            nextOrderId.setInt(2, d);
            int oid;
            try (ResultSet rs = nextOrderId.executeQuery()) {
                rs.next();
                oid = rs.getInt(1);
            }
            bumpOrderId.setInt(1, w);
            bumpOrderId.setInt(2, d);
            bumpOrderId.executeUpdate();
            insertOrder.setInt(1, w);
            insertOrder.setInt(2, d);
            insertOrder.setInt(3, oid);
            insertOrder.setInt(4, cust);
            insertOrder.setInt(5, lines);
            insertOrder.executeUpdate();
            long amount = 0;
            long quantity = 0;
            for (int n = 0; n < lines; n++) {
                int i = order[n];
                price.setInt(1, items[i]);
                long p;
                try (ResultSet rs = price.executeQuery()) {
                    if (!rs.next()) {
                        c.rollback();
                        ledger.rolledBack.incrementAndGet();
                        return;
                    }
                    p = rs.getLong(1);
                }
                stockUpdate.setInt(1, qty[i]);
                stockUpdate.setInt(2, qty[i]);
                stockUpdate.setInt(3, w);
                stockUpdate.setInt(4, items[i]);
                check(stockUpdate.executeUpdate() == 1, "stock row " + w + "/" + items[i] + " updated once");
                insertLine.setInt(1, w);
                insertLine.setInt(2, d);
                insertLine.setInt(3, oid);
                insertLine.setInt(4, i + 1);
                insertLine.setInt(5, items[i]);
                insertLine.setInt(6, qty[i]);
                insertLine.setLong(7, p * qty[i]);
                insertLine.executeUpdate();
                amount += p * qty[i];
                quantity += qty[i];
            }
            c.commit();
            ledger.newOrders.incrementAndGet();
            ledger.orderLines.addAndGet(lines);
            ledger.orderAmount.addAndGet(amount);
            ledger.quantity.addAndGet(quantity);
        }

        private void payment(Random r) throws SQLException {
            int w = 1 + r.nextInt(WAREHOUSES);
            int d = 1 + r.nextInt(DISTRICTS);
            int cust = 1 + r.nextInt(CUSTOMERS);
            long amount = 100 + r.nextInt(500_000);
            warehouseYtd.setLong(1, amount);
            warehouseYtd.setInt(2, w);
            check(warehouseYtd.executeUpdate() == 1, "warehouse " + w + " updated once");
            districtYtd.setLong(1, amount);
            districtYtd.setInt(2, w);
            districtYtd.setInt(3, d);
            check(districtYtd.executeUpdate() == 1, "district " + w + "/" + d + " updated once");
            customerPay.setLong(1, amount);
            customerPay.setLong(2, amount);
            customerPay.setInt(3, w);
            customerPay.setInt(4, d);
            customerPay.setInt(5, cust);
            check(customerPay.executeUpdate() == 1, "customer " + w + "/" + d + "/" + cust + " updated once");
            insertHistory.setInt(1, w);
            insertHistory.setInt(2, d);
            insertHistory.setInt(3, cust);
            insertHistory.setLong(4, amount);
            insertHistory.executeUpdate();
            c.commit();
            ledger.payments.incrementAndGet();
            ledger.paymentAmount.addAndGet(amount);
        }
    }

    private static long one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            check(rs.next(), "query returned a row: " + sql);
            return rs.getLong(1);
        }
    }

    private static String verify(Connection c, Ledger ledger, Options options) throws SQLException {
        long customers = (long) WAREHOUSES * DISTRICTS * CUSTOMERS;
        long wYtd = one(c, "SELECT SUM(w_ytd) FROM warehouse");
        long dYtd = one(c, "SELECT SUM(d_ytd) FROM district");
        long cYtd = one(c, "SELECT SUM(c_ytd_payment) FROM customer");
        long cBal = one(c, "SELECT SUM(c_balance) FROM customer");
        long cCnt = one(c, "SELECT SUM(c_payment_cnt) FROM customer");
        long hSum = one(c, "SELECT COALESCE(SUM(h_amount), 0) FROM history");
        long hCnt = one(c, "SELECT COUNT(*) FROM history");
        long orders = one(c, "SELECT COUNT(*) FROM orders");
        long lines = one(c, "SELECT COUNT(*) FROM order_line");
        long olCnt = one(c, "SELECT COALESCE(SUM(o_ol_cnt), 0) FROM orders");
        long olAmount = one(c, "SELECT COALESCE(SUM(ol_amount), 0) FROM order_line");
        long olQty = one(c, "SELECT COALESCE(SUM(ol_quantity), 0) FROM order_line");
        long sYtd = one(c, "SELECT SUM(s_ytd) FROM stock");
        long sOrderCnt = one(c, "SELECT SUM(s_order_cnt) FROM stock");
        long sBad = one(c, "SELECT COUNT(*) FROM stock WHERE s_quantity + s_ytd <> " + INITIAL_QUANTITY);
        // ids are handed out from d_next_o_id under the district row lock: 1..n with no gap or repeat
        long gaps = one(c, "SELECT COUNT(*) FROM district d WHERE d.d_next_o_id - 1 <>"
                + " (SELECT COUNT(*) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) OR d.d_next_o_id - 1 <>"
                + " (SELECT COALESCE(MAX(o_id), 0) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id)");
        long lineOrphans = one(c, "SELECT COUNT(*) FROM order_line l WHERE NOT EXISTS (SELECT 1 FROM orders o"
                + " WHERE o.o_w_id = l.ol_w_id AND o.o_d_id = l.ol_d_id AND o.o_id = l.ol_o_id)");

        check(wYtd == dYtd, "sum(w_ytd) " + wYtd + " == sum(d_ytd) " + dYtd);
        check(wYtd == cYtd, "sum(w_ytd) " + wYtd + " == sum(c_ytd_payment) " + cYtd);
        check(wYtd == hSum, "sum(w_ytd) " + wYtd + " == sum(h_amount) " + hSum);
        check(cBal + hSum == customers * INITIAL_BALANCE, "sum(c_balance) " + cBal + " + payments " + hSum
                + " == initial balances " + customers * INITIAL_BALANCE);
        check(cCnt == hCnt, "sum(c_payment_cnt) " + cCnt + " == history rows " + hCnt);
        check(hCnt == ledger.payments.get(), "history rows " + hCnt + " == committed payments " + ledger.payments.get());
        check(hSum == ledger.paymentAmount.get(), "sum(h_amount) " + hSum + " == ledger " + ledger.paymentAmount.get());
        check(orders == ledger.newOrders.get(), "orders " + orders + " == committed new-orders " + ledger.newOrders.get());
        check(lines == olCnt && lines == ledger.orderLines.get(), "order lines " + lines + " == sum(o_ol_cnt) " + olCnt
                + " == ledger " + ledger.orderLines.get());
        check(olAmount == ledger.orderAmount.get(), "sum(ol_amount) " + olAmount + " == ledger " + ledger.orderAmount.get());
        check(olQty == sYtd && olQty == ledger.quantity.get(), "sum(ol_quantity) " + olQty + " == sum(s_ytd) " + sYtd
                + " == ledger " + ledger.quantity.get());
        check(sOrderCnt == lines, "sum(s_order_cnt) " + sOrderCnt + " == order lines " + lines);
        check(sBad == 0, sBad + " stock rows with s_quantity + s_ytd != " + INITIAL_QUANTITY);
        check(gaps == 0, gaps + " districts whose order ids are not exactly 1..d_next_o_id-1");
        check(lineOrphans == 0, lineOrphans + " order lines without their order");
        check(orders + ledger.rolledBack.get() + hCnt == options.size(), "new-orders " + orders + " + rolled back "
                + ledger.rolledBack.get() + " + payments " + hCnt + " == transactions " + options.size());

        StringBuilder out = new StringBuilder();
        out.append("h2 tpcc: transactions=").append(options.size())
                .append(" warehouses=").append(WAREHOUSES).append(" districts=").append(DISTRICTS)
                .append(" customers=").append(customers).append(" items=").append(ITEMS).append('\n');
        out.append("new-orders committed=").append(orders).append(" rolled-back=").append(ledger.rolledBack.get())
                .append(" lines=").append(lines).append(" amount=").append(olAmount).append(" quantity=").append(olQty).append('\n');
        out.append("payments=").append(hCnt).append(" amount=").append(hSum).append(" sum(c_balance)=").append(cBal).append('\n');
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT d.d_w_id, d.d_id, d.d_next_o_id, d.d_ytd,"
                     + " (SELECT COALESCE(SUM(o_ol_cnt), 0) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id)"
                     + " FROM district d ORDER BY d.d_w_id, d.d_id")) {
            while (rs.next()) {
                out.append("district ").append(rs.getInt(1)).append('/').append(rs.getInt(2))
                        .append(" orders=").append(rs.getInt(3) - 1).append(" ytd=").append(rs.getLong(4))
                        .append(" lines=").append(rs.getLong(5)).append('\n');
            }
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT c_w_id, c_d_id, c_id, c_last, c_balance, c_payment_cnt FROM customer"
                     + " ORDER BY c_balance, c_w_id, c_d_id, c_id LIMIT 5")) {
            while (rs.next()) {
                out.append("top payer ").append(rs.getInt(1)).append('/').append(rs.getInt(2)).append('/')
                        .append(rs.getInt(3)).append(' ').append(rs.getString(4)).append(" balance=")
                        .append(rs.getLong(5)).append(" payments=").append(rs.getInt(6)).append('\n');
            }
        }
        return out.toString();
    }
}
