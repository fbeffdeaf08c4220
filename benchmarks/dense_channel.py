#!/usr/bin/env python3
"""Write a dense random two-pin channel in the classic text form.

    python3 benchmarks/dense_channel.py COLUMNS NETS SPAN SEED > FILE

Each net gets two pins at free pin positions (top or bottom, chosen at
random) at most SPAN columns apart; a net that finds no free pair in 50
tries is left out. The memory figures of benchmarks/README.md were measured
on `10000 2000 2100 2` (density 259) and `100000 25000 16000 1` (density
2,262).
"""

import random
import sys


def main():
    columns, nets, span, seed = (int(a) for a in sys.argv[1:5])
    rng = random.Random(seed)
    rows = ([0] * columns, [0] * columns)
    used = set()
    for net in range(1, nets + 1):
        for _ in range(50):
            a = rng.randrange(columns)
            b = min(columns - 1, a + rng.randrange(1, span))
            sa, sb = rng.randrange(2), rng.randrange(2)
            if (a, sa) in used or (b, sb) in used or (a, sa) == (b, sb):
                continue
            used.update([(a, sa), (b, sb)])
            rows[sa][a] = net
            rows[sb][b] = net
            break
    print("top: " + " ".join(map(str, rows[0])))
    print("bottom: " + " ".join(map(str, rows[1])))


if __name__ == "__main__":
    main()
