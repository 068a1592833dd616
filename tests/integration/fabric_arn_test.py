#!/usr/bin/env python3
"""ARN on a dragonfly of weft switches (issue 30, test 2), through scripts/fabric --shape dragonfly
--mode ethernet --arn: 3 groups of 3 switches, a Linux IP host on each, the SM in d00 programming
routes, ARS groups and, since it sees a dragonfly, each switch's ARN group (WeftArnGroup: the
switches build their flood tables and candidate paths from it). A host behind d01 sends twice the modelled rate of d01's global link to
group 1 (scripts/fabric_arn.py). Checked: d01 detects the congestion and tells it; d00 and d02,
the other switches of its group, take the news at the severity told (d02 through d00: the group's
prefix-multicast tree is rooted at d00); their traffic toward d01 (group 1's flows among it)
moves to their alternates while the news holds, and comes back once the elimination has reached
them. The detection-to-last-switch-updated latency is printed, not asserted.

    fabric_arn_test.py FABRIC_SCRIPT BUILD_DIR

Exit 77 (skipped) when not root or without network namespaces.
"""
import sys

from fabric_test import cannot_run, check, run, verdict


def share(x):
    return x[0] / max(1, x[0] + x[1])


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    script, build = sys.argv[1:]
    if why := cannot_run():
        print("SKIP: " + why)
        return 77
    fig = run(script, build, ["--shape", "dragonfly", "--mode", "ethernet", "--routers", "3", "--hosts", "1", "--arn"])
    if fig is None:
        print("no figures")
        return 1
    tables = fig.get("tables", {})
    check(tables.get("checked") == 81 and not tables.get("problems"),
          f"81 subnet routes on 9 switches as weft-route compiles them: {tables}")
    arn = fig.get("arn")
    check(arn is not None, "the ARN scenario ran")
    if arn:
        check(arn.get("topology") == "sm", f"every switch's group is the one the SM found: {arn.get('topology')}")
        check(arn["peers_told"] == arn["peers"] == 2,
              f"both other switches of the group took the news: {arn['peers_told']} of {arn['peers']}")
        check(arn["latency_us"] is not None, f"detection to last switch updated: {arn['latency_us']} us")
        check(arn["cleared"] == arn["peers"], f"the elimination reached them: {arn['cleared']}")
        for s in arn["before"]:
            b, d, a = share(arn["before"][s]), share(arn["during"][s]), share(arn["after"][s])
            check(d < 0.85 * b, f"{s} moved traffic off the congested path: {b:.0%} of its packets toward the "
                                f"link's owner before, {d:.0%} during")
            check(a > d and a > 0.85 * b, f"{s} brought it back after the elimination: {a:.0%}")
        print(f"     detection to last switch updated {arn['latency_us']} us, elimination "
              f"{arn['elimination_latency_us']} us; bring-up {fig.get('bring_up_s', 0):.3f} s")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
