# Interpreter-heavy work for Jython: string processing, dict/list comprehensions, recursion and a
# small expression interpreter, spread over real Java threads (Jython has no global interpreter lock).
# Inputs: SIZE and THREADS (set by the Java side). Output: RESULT, a deterministic text.
# Every part checks its own answer and raises AssertionError when it is wrong.
import threading

MASK = (1 << 31) - 1


class Lcg(object):
    """A seeded generator written out here, so that the numbers do not depend on the random module."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self, bound):
        self.state = (self.state * 1103515245 + 12345) & MASK
        return (self.state >> 8) % bound


SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'so', 'ta', 'vi', 'ze', 'pa', 'qu', 'do']


def make_words(seed, n):
    g = Lcg(seed)
    return [''.join(SYLLABLES[g.next(len(SYLLABLES))] for _ in range(1 + g.next(3))) for _ in range(n)]


def word_stats(words):
    freq = {}
    for w in words:
        freq[w] = freq.get(w, 0) + 1
    assert sum(freq.values()) == len(words), 'word frequencies add up'
    by_len = dict((k, len([w for w in freq if len(w) == k])) for k in set(len(w) for w in freq))
    top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    return freq, by_len, top


def rle(s):
    out = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append('%d%s' % (j - i, s[i]))
        i = j
    return ''.join(out)


def unrle(s):
    out = []
    num = ''
    for ch in s:
        if ch.isdigit():
            num += ch
        else:
            out.append(ch * int(num))
            num = ''
    return ''.join(out)


def queens(n):
    def place(row, cols, d1, d2):
        if row == n:
            return 1
        total = 0
        for c in range(n):
            if c not in cols and (row - c) not in d1 and (row + c) not in d2:
                total += place(row + 1, cols | set([c]), d1 | set([row - c]), d2 | set([row + c]))
        return total
    return place(0, frozenset(), frozenset(), frozenset())


def tokenize(src):
    tokens = []
    i = 0
    while i < len(src):
        ch = src[i]
        if ch.isdigit():
            j = i
            while j < len(src) and src[j].isdigit():
                j += 1
            tokens.append(('num', int(src[i:j])))
            i = j
        elif ch in '+-*%()':
            tokens.append(('op', ch))
            i += 1
        elif ch == ' ':
            i += 1
        else:
            raise ValueError('bad character %r' % ch)
    return tokens


class Parser(object):
    """Recursive descent: expr := term (('+'|'-') term)*, term := atom (('*'|'%') atom)*."""

    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self):
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def expr(self):
        node = self.term()
        while self.peek() in (('op', '+'), ('op', '-')):
            node = (self.take()[1], node, self.term())
        return node

    def term(self):
        node = self.atom()
        while self.peek() in (('op', '*'), ('op', '%')):
            node = (self.take()[1], node, self.atom())
        return node

    def atom(self):
        kind, value = self.take()
        if kind == 'num':
            return value
        if value == '(':
            node = self.expr()
            assert self.take() == ('op', ')'), 'closing parenthesis'
            return node
        raise ValueError('unexpected %r' % value)


def evaluate(node):
    if isinstance(node, (int, long)):
        return node
    op, a, b = node
    x, y = evaluate(a), evaluate(b)
    if op == '+':
        return x + y
    if op == '-':
        return x - y
    if op == '*':
        return x * y
    return x % y if y != 0 else x


def make_expr(g, depth):
    if depth == 0 or g.next(4) == 0:
        return str(1 + g.next(99))
    op = '+-*%'[g.next(4)]
    return '(' + make_expr(g, depth - 1) + ' ' + op + ' ' + make_expr(g, depth - 1) + ')'


def chunk_work(seed, n):
    """One thread's share: n words, n/4 expressions; returns partial results to be merged."""
    words = make_words(seed, n)
    freq, by_len, top = word_stats(words)
    text = ''.join(w[0] * (1 + len(w) % 3) for w in words)
    packed = rle(text)
    assert unrle(packed) == text, 'run-length round trip'
    g = Lcg(seed * 7 + 1)
    values = []
    for k in range(n // 4):
        src = make_expr(g, 5)
        v = evaluate(Parser(tokenize(src)).expr())
        values.append(v)
    return freq, len(packed), values


def run(size, threads):
    chunks = max(threads, 4)
    parts = [None] * chunks
    errors = []

    def worker(t):
        try:
            for c in range(t, chunks, threads):
                parts[c] = chunk_work(1000 + c, size // chunks)
        except Exception, e:
            errors.append('%s: %s' % (type(e).__name__, e))

    pool = [threading.Thread(target=worker, args=(t,)) for t in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    assert not errors, 'worker failed: %s' % errors

    total = {}
    for freq, _, _ in parts:
        for w, n in freq.items():
            total[w] = total.get(w, 0) + n
    expect = sum(len(make_words(1000 + c, size // chunks)) for c in range(chunks))
    assert sum(total.values()) == expect, 'merged word count %d == %d' % (sum(total.values()), expect)
    values = [v for _, _, vs in parts for v in vs]
    checksum = reduce(lambda acc, v: (acc * 31 + v) % 1000000007, values, 7)
    packed = sum(p[1] for p in parts)

    q = dict((n, queens(n)) for n in range(4, 8 + min(size // 20000, 1)))
    known = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352}
    assert all(q[n] == known[n] for n in q), 'n-queens counts %r' % q

    # spot-check the interpreter against Python's own evaluation of the same expressions
    g = Lcg(99)
    for _ in range(50):
        src = make_expr(g, 4)
        if '%' in src:
            continue
        assert evaluate(Parser(tokenize(src)).expr()) == eval(src), 'interpreter agrees with eval on ' + src

    top = sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))[:8]
    lines = ['jython: size=%d words=%d distinct=%d' % (size, expect, len(total)),
             'top words: ' + ' '.join('%s=%d' % kv for kv in top),
             'rle chars=%d expressions=%d checksum=%d' % (packed, len(values), checksum),
             'queens: ' + ' '.join('%d=%d' % (n, q[n]) for n in sorted(q))]
    return '\n'.join(lines) + '\n'


RESULT = run(SIZE, THREADS)
