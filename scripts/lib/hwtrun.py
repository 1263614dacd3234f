# SPDX-License-Identifier: GPL-2.0
"""hwtrun - run a perf-script hook's functions over the `hwtrace` module's
records, for `python3 HOOK.py -i FILE [ARGS]` without perf.

The module streams records as dicts named like `script --json`; a hook
expects what perf script passes.  hook_fields() gives it that: common_s and
common_ns from the record's time, arrays as "v0,v1,...", panthor counters
as "NAME=v,...", booleans as ints, and 0 for a field the record does not
hold (perf passes 0 or "" for an absent value).  Enum and flag fields stay
names; the plot hooks accept both.
"""
import sys


class Fields(dict):
    def __missing__(self, key):
        return 0


def standalone():
    """True when no perf-script runner (stock perf or perf hwtrace) runs us."""
    try:
        import perf_trace_context  # noqa: F401
        return False
    except ImportError:
        return True


def hook_fields(rec):
    f = Fields()
    t = rec.get('time', 0)
    f['common_s'], f['common_ns'] = divmod(t, 1000000000)
    f['common_cpu'] = rec.get('cpu', 0)
    f['common_pid'] = -1
    f['common_comm'] = ':-1'
    f['common_callchain'] = []
    for k, v in rec.items():
        if isinstance(v, bool):
            v = int(v)
        elif isinstance(v, list):
            v = ','.join(str(x) for x in v)
        elif isinstance(v, dict):
            v = ','.join('%s=%d' % kv for kv in v.items())
        f[k] = v
    return f


def run(name, begin, unhandled, end, need_input=True):
    """Take -i FILE out of sys.argv, call begin(), unhandled() per record, end().

    Exit 2 on a usage error before reading, 1 when the input had errors.
    """
    argv, path = [sys.argv[0]], None
    a = sys.argv[1:]
    while a:
        k = a.pop(0)
        if k in ('-i', '--input') and a:
            path = a.pop(0)
        else:
            argv.append(k)
    sys.argv = argv
    if path is None and need_input:
        sys.stderr.write('%s: -i FILE is needed when run without perf script\n' % name)
        sys.exit(2)
    begin()
    errors = 0
    if path is not None:
        try:
            import hwtrace
        except ImportError:
            sys.stderr.write('%s: the hwtrace module is not on sys.path '
                             '(PYTHONPATH=build/python, or make install)\n' % name)
            sys.exit(2)
        try:
            it = hwtrace.open(path)
        except OSError as e:
            sys.stderr.write('%s: %s\n' % (name, e))
            sys.exit(1)
        with it:
            for rec in it:
                unhandled('hwtrace__' + rec['type'], None, hook_fields(rec))
            errors = it.errors
    end()
    if errors:
        sys.stderr.write('%s: %s: %d decoding errors (records after them were used)\n'
                         % (name, path, errors))
        sys.exit(1)
