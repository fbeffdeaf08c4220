#!/usr/bin/env python3
"""What KLayout's own readers see in files fabric wrote, as JSON on stdout:
a list with one entry per file, in order.

    python3 tests/klayout_dump.py FILE.gds FILE.oas FILE.def --lef FILE.lef ...

GDSII and OASIS: the top cell, the cells, and per layer ("L/D") the shapes
under the top cell with placed cells flattened (boxes, paths, texts), their
bounding box and the total length of the paths' centre lines, all in
database units.

DEF (read with the LEF): per layer name the shapes, the via instances by
cell, and per net what its wiring is: wires per layer, vias, connected
components (wires and pin ports joined where they touch on a layer, through
vias, stacked vias through their pads, and a pin's ports on every layer
with each other: pins are contacts through all layers), pins and pins on the
net's wiring; and "shorts", the pairs of shapes of different nets that
touch on a layer (a wire against a wire or a pin port).

tests/physical.rs runs it and holds the figures against fabric's own.
"""

import json
import sys

try:
    import klayout.db as db
except ImportError:
    sys.stderr.write(
        "the klayout Python package is missing: pip install klayout "
        "(or pip install --break-system-packages klayout)\n"
    )
    sys.exit(3)


def box_list(b):
    return [b.left, b.bottom, b.right, b.top]


def spine_length(path):
    pts = list(path.each_point())
    return sum(abs(a.x - b.x) + abs(a.y - b.y) for a, b in zip(pts, pts[1:]))


def dump_stream(path):
    ly = db.Layout()
    ly.read(path)
    tops = ly.top_cells()
    top = tops[0]
    layers = {}
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        entry = {"shapes": 0, "boxes": 0, "paths": 0, "texts": 0, "path_length": 0}
        it = top.begin_shapes_rec(li)
        while not it.at_end():
            s = it.shape()
            entry["shapes"] += 1
            if s.is_box():
                entry["boxes"] += 1
            elif s.is_path():
                entry["paths"] += 1
                entry["path_length"] += spine_length(s.path)
            elif s.is_text():
                entry["texts"] += 1
            it.next()
        if entry["shapes"] == 0:
            continue
        entry["bbox"] = box_list(top.bbox_per_layer(li))
        layers["%d/%d" % (info.layer, info.datatype)] = entry
    names = [c.name for c in ly.each_cell()]
    return {
        "dbu": ly.dbu,
        "top": top.name,
        "top_cells": len(tops),
        "cells": ly.cells(),
        "node_cells": sum(1 for n in names if n.startswith("N") and n[1:].isdigit()),
        "placements": top.child_instances(),
        "bbox": box_list(top.bbox()),
        "layers": layers,
    }


class Unions:
    def __init__(self, n):
        self.parent = list(range(n))

    def find(self, a):
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def join(self, a, b):
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[max(a, b)] = min(a, b)


def touch(a, b):
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def contains(b, x, y):
    return b[0] <= x <= b[2] and b[1] <= y <= b[3]


def dump_def(path, lef):
    opt = db.LoadLayoutOptions()
    cfg = opt.lefdef_config
    cfg.lef_files = [lef]
    cfg.net_property_name = "NET"
    cfg.pin_property_name = "PIN"
    cfg.produce_via_geometry = True
    ly = db.Layout()
    ly.read(path, opt)
    top = ly.top_cell()
    counts = {}
    # Shapes as nodes: wires (layer, net, box), then pin ports, then vias.
    wires = []
    ports = []  # (layer, net, box, pin name)
    for li in ly.layer_indexes():
        name = ly.get_info(li).name
        base, _, purpose = name.partition(".")
        n = 0
        for s in top.shapes(li).each():
            n += 1
            if purpose == "" and base.startswith("metal") and s.property("NET"):
                wires.append((base, s.property("NET"), box_list(s.bbox())))
            elif purpose == "PIN":
                ports.append((base, s.property("NET"), box_list(s.bbox()), s.property("PIN")))
        counts[name] = n
    vias = []  # (lower metal, upper metal, x, y)
    via_cells = {}
    for inst in top.each_inst():
        cname = inst.cell.name
        via_cells[cname] = via_cells.get(cname, 0) + 1
        k = cname.rsplit("via", 1)[-1].split("_")
        d = inst.trans.disp
        vias.append(("metal" + k[0], "metal" + k[1], d.x, d.y))
    nw, npo = len(wires), len(ports)
    shapes = wires + [(layer, net, b) for layer, net, b, _ in ports]
    u = Unions(nw + npo + len(vias))
    by_layer = {}
    for i, (layer, _, _) in enumerate(shapes):
        by_layer.setdefault(layer, []).append(i)
    shorts = 0
    for ids in by_layer.values():
        for a in range(len(ids)):
            for b in range(a + 1, len(ids)):
                i, j = ids[a], ids[b]
                if touch(shapes[i][2], shapes[j][2]):
                    if shapes[i][1] == shapes[j][1]:
                        u.join(i, j)
                    elif i < nw or j < nw:
                        shorts += 1
    # A pin is a contact through all its ports' layers.
    first_port = {}
    for k, (_, _, _, pin) in enumerate(ports):
        u.join(first_port.setdefault(pin, nw + k), nw + k)
    at_point = {}
    for v, (lo, hi, x, y) in enumerate(vias):
        at_point.setdefault((x, y), []).append(v)
        for layer in (lo, hi):
            for i in by_layer.get(layer, []):
                if contains(shapes[i][2], x, y):
                    u.join(nw + npo + v, i)
    for stack in at_point.values():
        for a in stack:
            for b in stack:
                if vias[a][1] == vias[b][0]:
                    u.join(nw + npo + a, nw + npo + b)
    nets_of_root = {}
    for i, (_, net, _) in enumerate(shapes):
        nets_of_root.setdefault(u.find(i), set()).add(net)
    nets = {}

    def net_entry(net):
        return nets.setdefault(
            net, {"wires": {}, "vias": 0, "components": 0, "pins": 0, "pins_on_wiring": 0}
        )

    roots = {}
    for i, (layer, net, _) in enumerate(shapes):
        e = net_entry(net)
        if i < nw:
            e["wires"][layer] = e["wires"].get(layer, 0) + 1
        roots.setdefault(net, set()).add(u.find(i))
    for net, r in roots.items():
        nets[net]["components"] = len(r)
    orphan_vias = 0
    for v in range(len(vias)):
        owners = nets_of_root.get(u.find(nw + npo + v), set())
        if len(owners) == 1:
            net_entry(next(iter(owners)))["vias"] += 1
        else:
            orphan_vias += 1
    wired_roots = {u.find(i) for i in range(nw)} | {
        u.find(nw + npo + v) for v in range(len(vias))
    }
    pins = {}
    for k, (_, net, _, pin) in enumerate(ports):
        pins.setdefault((net, pin), False)
        if u.find(nw + k) in wired_roots:
            pins[(net, pin)] = True
    for (net, _), on in pins.items():
        e = net_entry(net)
        e["pins"] += 1
        e["pins_on_wiring"] += int(on)
    return {
        "dbu": ly.dbu,
        "top": top.name,
        "bbox": box_list(top.bbox()),
        "layers": counts,
        "via_cells": via_cells,
        "vias": len(vias),
        "orphan_vias": orphan_vias,
        "shorts": shorts,
        "pins": len(pins),
        "nets": nets,
    }


def main(argv):
    """Each FILE, a DEF followed by --lef LEF; one JSON list, in order."""
    args = argv[1:]
    out = []
    while args:
        path = args.pop(0)
        if args[:1] == ["--lef"] and len(args) >= 2:
            out.append(dump_def(path, args[1]))
            args = args[2:]
        elif path.startswith("--"):
            sys.stderr.write(__doc__)
            return 2
        else:
            out.append(dump_stream(path))
    if not out:
        sys.stderr.write(__doc__)
        return 2
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
