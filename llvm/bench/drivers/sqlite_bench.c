/* SQLite: in-memory database, 100k rows inserted in transactions, an index,
 * and aggregate queries.  The checksum covers every query result. */
#include "common.h"
#include "sqlite3.h"

static uint64_t sum;

static int collect(void *arg, int ncol, char **vals, char **names) {
  (void)arg;
  (void)names;
  for (int i = 0; i < ncol; i++) {
    const char *v = vals[i] ? vals[i] : "NULL";
    sum = fnv1a(sum, v, strlen(v) + 1);
  }
  return 0;
}

static void exec(sqlite3 *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, collect, NULL, &err) != SQLITE_OK) {
    fprintf(stderr, "sqlite: %s: %s\n", sql, err);
    exit(1);
  }
}

static void workload(int rows) {
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK)
    exit(1);
  exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT)");
  sqlite3_stmt *ins;
  sqlite3_prepare_v2(db, "INSERT INTO t(a, b, c) VALUES (?, ?, ?)", -1, &ins,
                     NULL);
  lcg_state = 42;
  for (int i = 0; i < rows; i++) {
    if (i % 10000 == 0)
      exec(db, "BEGIN");
    char text[40];
    uint32_t r = lcg();
    snprintf(text, sizeof text, "row-%u-%u", r % 977, i);
    sqlite3_bind_int(ins, 1, (int)(r % 100000));
    sqlite3_bind_double(ins, 2, (r % 10007) / 7.0);
    sqlite3_bind_text(ins, 3, text, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(ins) != SQLITE_DONE)
      exit(1);
    sqlite3_reset(ins);
    if (i % 10000 == 9999 || i == rows - 1)
      exec(db, "COMMIT");
  }
  sqlite3_finalize(ins);
  exec(db, "CREATE INDEX ta ON t(a)");
  exec(db, "SELECT count(*), sum(a), printf('%.3f', avg(b)), max(length(c)) "
           "FROM t");
  exec(db, "SELECT a % 100, count(*), sum(id), printf('%.3f', sum(b)) FROM t "
           "GROUP BY 1 ORDER BY 1");
  exec(db, "SELECT count(*) FROM t WHERE a BETWEEN 1000 AND 20000");
  exec(db, "SELECT substr(c, 1, 6) AS k, count(*) FROM t GROUP BY k ORDER BY "
           "2 DESC, 1 LIMIT 20");
  exec(db, "UPDATE t SET b = b * 2 WHERE a % 3 = 0");
  exec(db, "SELECT printf('%.3f', sum(b)) FROM t");
  exec(db, "DELETE FROM t WHERE a % 5 = 0");
  exec(db, "SELECT count(*), sum(a) FROM t");
  sqlite3_close(db);
}

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  int rows = argc > 2 ? atoi(argv[2]) : 100000;
  uint64_t first = 0;
  for (int it = 0; it < n; it++) {
    sum = FNV_INIT;
    double t0 = now_ms();
    workload(rows);
    printf("iter %d %.3f\n", it, now_ms() - t0);
    if (it == 0)
      first = sum;
    else if (sum != first)
      return 1;
  }
  printf("checksum %016llx\n", (unsigned long long)first);
  return 0;
}
