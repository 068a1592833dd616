"""FPM frames of netlink messages as zebra's dplane_fpm_nl writes them, for the tests that speak
to weft's FPM server themselves (bad input) and for the FPM fuzz targets' seeds."""
import socket
import struct

RTM_NEWROUTE, RTM_DELROUTE = 24, 25
RTM_NEWNEXTHOP, RTM_DELNEXTHOP = 104, 105
NLM_F_REQUEST, NLM_F_REPLACE = 0x1, 0x100
RTA_DST, RTA_OIF, RTA_GATEWAY, RTA_MULTIPATH, RTA_TABLE, RTA_NH_ID = 1, 4, 5, 9, 15, 30
NHA_ID, NHA_GROUP, NHA_BLACKHOLE, NHA_OIF, NHA_GATEWAY = 1, 2, 4, 5, 6
RTN_UNICAST, RTN_BLACKHOLE = 1, 6
RT_TABLE_MAIN = 254


def align4(b):
    return b + b"\0" * (-len(b) % 4)


def attr(kind, payload):
    return align4(struct.pack("=HH", 4 + len(payload), kind) + payload)


def u32(kind, v):
    return attr(kind, struct.pack("=I", v))


def addr_bytes(text):
    try:
        return socket.inet_pton(socket.AF_INET, text)
    except OSError:
        return socket.inet_pton(socket.AF_INET6, text)


def nlmsg(kind, body, flags=NLM_F_REQUEST, seq=0):
    return struct.pack("=IHHII", 16 + len(body), kind, flags, seq, 0) + body


def route(prefix, add=True, gateway=None, oif=None, nh_id=None, multipath=None, rtype=RTN_UNICAST,
          table=RT_TABLE_MAIN, replace=False):
    """An RTM_NEWROUTE / RTM_DELROUTE message. multipath: [(gateway or None, ifindex, weight)]."""
    net, length = prefix.split("/")
    dst = addr_bytes(net)
    family = socket.AF_INET if len(dst) == 4 else socket.AF_INET6
    body = struct.pack("=BBBBBBBBI", family, int(length), 0, 0, table, 4, 0, rtype, 0)
    body += attr(RTA_DST, dst)
    if gateway:
        body += attr(RTA_GATEWAY, addr_bytes(gateway))
    if oif:
        body += u32(RTA_OIF, oif)
    if nh_id:
        body += u32(RTA_NH_ID, nh_id)
    if multipath:
        hops = b""
        for gw, ifindex, weight in multipath:
            inner = attr(RTA_GATEWAY, addr_bytes(gw)) if gw else b""
            hops += align4(struct.pack("=HBBi", 8 + len(inner), 0, weight - 1, ifindex) + inner)
        body += attr(RTA_MULTIPATH, hops)
    flags = NLM_F_REQUEST | (NLM_F_REPLACE if replace else 0)
    return nlmsg(RTM_NEWROUTE if add else RTM_DELROUTE, body, flags)


def nexthop(nh_id, add=True, gateway=None, oif=None, group=None, blackhole=False):
    """An RTM_NEWNEXTHOP / RTM_DELNEXTHOP message. group: [(id, weight)]."""
    family = 0
    if gateway:
        family = socket.AF_INET if len(addr_bytes(gateway)) == 4 else socket.AF_INET6
    body = struct.pack("=BBBBI", family, 0, 4, 0, 0) + u32(NHA_ID, nh_id)
    if gateway:
        body += attr(NHA_GATEWAY, addr_bytes(gateway))
    if oif:
        body += u32(NHA_OIF, oif)
    if group:
        body += attr(NHA_GROUP, b"".join(struct.pack("=IBBH", i, w - 1, 0, 0) for i, w in group))
    if blackhole:
        body += attr(NHA_BLACKHOLE, b"")
    return nlmsg(RTM_NEWNEXTHOP if add else RTM_DELNEXTHOP, body)


def frame(*msgs, version=1, kind=1, length=None):
    payload = b"".join(msgs)
    n = 4 + len(payload) if length is None else length
    return struct.pack("!BBH", version, kind, n) + payload
