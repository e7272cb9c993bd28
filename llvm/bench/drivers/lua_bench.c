/* Lua 5.4: the interpreter runs a script of recursion, table building and
 * sorting, string formatting and concatenation, closures and coroutines.
 * An interpreter's inner loop copies small values (TValue, 16 bytes) all the
 * time, which is what whole copies are for. */
#include "common.h"
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static const char *script =
    "local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end\n"
    "local t = {}\n"
    "for i = 1, 200000 do t[i] = (i * 7919) % 100003 end\n"
    "table.sort(t)\n"
    "local parts = {}\n"
    "for i = 1, 50000 do parts[#parts+1] = string.format('%d:%x', t[i], i) end\n"
    "local s = table.concat(parts, ',')\n"
    "local words = 0\n"
    "for w in s:gmatch('[^,]+') do words = words + 1 end\n"
    "local function counter() local c = 0 return function() c = c + 1 return c end end\n"
    "local f, acc = counter(), 0\n"
    "for i = 1, 300000 do acc = acc + f() end\n"
    "local co = coroutine.wrap(function() for i = 1, 100000 do coroutine.yield(i) end end)\n"
    "local cs = 0\n"
    "for i = 1, 100000 do cs = cs + co() end\n"
    "return string.format('%d %d %d %d %d %d', fib(27), t[1000], #s, words, acc, cs)\n";

int main(int argc, char **argv) {
  int n = iterations(argc, argv, 5);
  uint64_t sum = FNV_INIT;
  for (int it = 0; it < n; it++) {
    double t0 = now_ms();
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    if (luaL_dostring(L, script) != LUA_OK) {
      fprintf(stderr, "lua: %s\n", lua_tostring(L, -1));
      return 1;
    }
    size_t len;
    const char *r = lua_tolstring(L, -1, &len);
    if (it == 0)
      sum = fnv1a(sum, r, len);
    lua_close(L);
    printf("iter %d %.3f\n", it, now_ms() - t0);
  }
  printf("checksum %016llx\n", (unsigned long long)sum);
  return 0;
}
