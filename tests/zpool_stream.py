"""zpool_stream.py - samples of a `zpool iostat -v tank` left running, for
the tests that feed benchlog long streams (tests/bench, tests/pathological).
"""

HEAD = ("               capacity     operations    bandwidth\n"
        "pool         used  avail   read  write   read  write\n"
        "----------  -----  -----  -----  -----  -----  -----\n")
ROWS = (("tank", "1.07T", "2.55T"), ("  raidz1", "1.07T", "2.55T"),
        ("    ad4", "-", "-"), ("    ad6", "-", "-"), ("    ad8", "-", "-"),
        ("    ad10", "-", "-"))
# values a sample gives: 6 for the pool and the raidz, 4 for each disk
VALUES = 6 + 6 + 4 * 4


def sample(row_values):
    """One sample, its table closed by a rule and a blank line;
    row_values(k) gives row k's reads, writes (ints) and the read and
    write bandwidths (text such as "7.5M")."""
    rows = "".join("%-10s  %5s  %5s  %5d  %5d  %5s  %5s\n" % ((name, used, avail) +
                                                           tuple(row_values(k)))
                   for k, (name, used, avail) in enumerate(ROWS))
    return HEAD + rows + HEAD.splitlines()[-1] + "\n\n"
