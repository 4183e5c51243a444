#!/usr/bin/env python3
"""Build check for the CUDA kernels, no GPU needed (issue 4's "check the build").

For each kernel of the given translation units (default: every sm90 forward and backward unit):
registers and spill bytes (ptxas -v), and for its main loop (the innermost backward branch whose
body issues HGMMA or HMMA and holds no EXIT: ptxas's out-of-line mbarrier-wait stubs branch back
from past the kernel's end) the instruction count, the tensor instructions and the local-memory
accesses (LDL/STL) in it. Prints one markdown table for bench/NOTES.md.

    python3 tools/sass_report.py                      # src/cuda/sm90/*.cu, sm_90a
    python3 tools/sass_report.py src/cuda/sm90/fwd_bf16_hdim128.cu --filter Lb0E
    python3 tools/sass_report.py src/cuda/sm90/fwd_bf16_hdim64.cu -D FLASHATTN_SM90_TRACE

Needs nvcc (CUDA 12.3+) and cuobjdump (CUDA's, or `pip download nvidia-cuda-cuobjdump`; CUOBJDUMP
names it); the units compile in parallel (JOBS, default the CPU count).
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_unit(src, arch, out_dir, defines=()):
    """ptxas -v report and cubin of one translation unit (defines: extra -D of a build-time variant)."""
    cubin = os.path.join(out_dir, os.path.basename(src) + ".cubin")
    cmd = [os.environ.get("NVCC", "nvcc"), "-std=c++17", "-O3", "-I" + os.path.join(ROOT, "include"),
           "-I" + os.path.join(ROOT, "src"), "-DFLASHATTN_WITH_CUDA", "-gencode=arch=compute_%s,code=sm_%s" % (arch, arch),
           *["-D" + d for d in defines], "-Xptxas", "-v", "-cubin", "-o", cubin, src]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    return r.stderr, cubin


def ptxas_info(report):
    """kernel -> [registers, spill store bytes, spill load bytes, "serialized/injected"]: ptxas's
    C75xx notes, C7517 (a wgmma wait it injected) apart from the others (wgmma serialized). ptxas
    prints them all before the first "Compiling entry function" line, so they are matched by the
    function name they end with, not by position (until session 25 this column read 0 always)."""
    info, name, notes = {}, None, {}
    for line in report.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            name = m.group(1)
            info[name] = [0, 0, 0, ""]
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and name:
            info[name][1], info[name][2] = int(m.group(1)), int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m and name:
            info[name][0] = int(m.group(1))
        m = re.search(r"\((C75\d\d)\).*function '(\w+)'", line)
        if m:
            counts = notes.setdefault(m.group(2), [0, 0])
            counts[1 if m.group(1) == "C7517" else 0] += 1
    for k, v in info.items():
        ser, inj = notes.get(k, (0, 0))
        v[3] = "%d/%d" % (ser, inj)
    return info


def order(body):
    """The main loop's wgmma groups and waits in SASS order, with the softmax's exponentials: T a
    named-barrier wait (the ping-pong turn), G a wgmma group's last HGMMA, Wn a wait until n groups
    are pending, E a run of MUFU.EX2. Where ptxas put the waits: the sm90 forward's plain kernels
    read "T G G W1 W0 E" (P V's wait above the softmax, ptxas's choice; session 25 measured it the
    faster one)."""
    out = []
    for t in body:
        if "WARPGROUP.DEPBAR" in t:
            out.append("W" + t.split()[-1][-1])
        elif "HGMMA" in t and "gsb0" in t:
            out.append("G")
        elif "MUFU.EX2" in t:
            if not out or out[-1] != "E":
                out.append("E")
        elif "BAR.SYNC" in t:
            out.append("T")
    return " ".join(out)


def main_loops(cubin, cuobjdump):
    """kernel -> (instructions, tensor instructions, LDL/STL, order()) of its main loop."""
    sass = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True, check=True).stdout
    loops, name, ins = {}, None, []

    def close():
        if name is None:
            return
        best = None
        for addr, text in ins:
            m = re.search(r"BRA (0x[0-9a-f]+)", text)
            if not m or int(m.group(1), 16) >= addr:
                continue
            body = [t for a, t in ins if int(m.group(1), 16) <= a <= addr]
            # Not a loop: the jump back from an out-of-line stub (ptxas puts an mbarrier wait's
            # retry after the kernel's code and branches back), whose span holds an EXIT.
            if any(re.match(r"(@!?U?P\d+ )?EXIT\b", t) for t in body):
                continue
            tensor = sum(1 for t in body if "HGMMA" in t or "HMMA" in t)
            if tensor and (best is None or len(body) < best[0]):
                best = (len(body), tensor, sum(1 for t in body if re.search(r"\b(LDL|STL)\b", t)), order(body))
        loops[name] = best or (0, 0, 0, "")

    for line in sass.splitlines():
        m = re.match(r"\s*Function : (\w+)", line)
        if m:
            close()
            name, ins = m.group(1), []
            continue
        m = re.match(r"\s+/\*([0-9a-f]{4,6})\*/\s+(.*?);", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2).strip()))
    close()
    return loops


def short(name):
    """The template arguments of a mangled kernel name, readable enough to tell them apart."""
    m = re.search(r"(fwd|bwd)_kernel", name)
    args = re.findall(r"Li(\d+)E|Lb([01])E|(__half|bfloat16)", name)
    parts = [a or ("b" + b if b else c.replace("__nv_", "")) for a, b, c in args]
    return "%s<%s>" % (m.group(1) if m else name[:20], ",".join(parts))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("units", nargs="*", help="translation units (default: src/cuda/sm90/*.cu except the launchers)")
    ap.add_argument("--arch", default="90a")
    ap.add_argument("--filter", default="", help="regex on the mangled kernel name")
    ap.add_argument("-D", dest="defines", action="append", default=[],
                    help="a build-time variant's define, e.g. -D FLASHATTN_SM90_TRACE (repeatable)")
    args = ap.parse_args()
    cuobjdump = os.environ.get("CUOBJDUMP") or shutil.which("cuobjdump")
    if not cuobjdump:
        print("sass_report: cuobjdump not found (set CUOBJDUMP or put it on PATH)", file=sys.stderr)
        return 2
    units = args.units or sorted(u for u in glob.glob(os.path.join(ROOT, "src/cuda/sm90/*.cu"))
                                 if "launch" not in os.path.basename(u))
    rows = []
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(int(os.environ.get("JOBS", os.cpu_count() or 2))) as pool:
        for src, (report, cubin) in zip(units, pool.map(lambda u: compile_unit(u, args.arch, tmp, args.defines), units)):
            info, loops = ptxas_info(report), main_loops(cubin, cuobjdump)
            for k in sorted(info):
                if args.filter and not re.search(args.filter, k):
                    continue
                regs, st, ld, c75 = info[k]
                n, tensor, local, seq = loops.get(k, (0, 0, 0, ""))
                rows.append((os.path.basename(src), short(k), regs, st, ld, c75, n, tensor, local, seq))
    print("| unit | kernel | registers | spill st/ld B | C75xx serialized/injected | main loop instr | tensor | "
          "LDL/STL in loop | loop order |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %d | %d / %d | %s | %d | %d | %d | %s |" % r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
