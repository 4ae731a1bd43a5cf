# unixsock.sh: local AF_UNIX IPC as Python programs do it (an asyncio
# unix server on argv[1], a multiprocessing manager and a spawn pool,
# which bind their sockets in $TMPDIR).  Prints "ipc ok".
import asyncio
import multiprocessing
import multiprocessing.managers
import sys


async def roundtrip(path):
    async def echo(r, w):
        w.write(await r.readline())
        await w.drain()
        w.close()

    srv = await asyncio.start_unix_server(echo, path)
    r, w = await asyncio.open_unix_connection(path)
    w.write(b"hi\n")
    await w.drain()
    line = await r.readline()
    w.close()
    srv.close()
    return line


def sq(x):
    return x * x


if __name__ == "__main__":
    assert asyncio.run(roundtrip(sys.argv[1])) == b"hi\n"
    with multiprocessing.managers.SyncManager() as m:
        d = m.dict()
        d["k"] = 7
        assert d["k"] == 7
    with multiprocessing.get_context("spawn").Pool(2) as p:
        assert p.map(sq, [1, 2, 3]) == [1, 4, 9]
    print("ipc ok")
