"""The shapes sidecars of a run (docs/output-format.md, "Shapes sidecar for ParaView"; issue 36,
item 1): RUN.spheres.xdmf, RUN.hulls.xdmf and RUN.walls.xdmf, one grid per snapshot, every
reference resolving to a dataset of the snapshot's file with the stated dimensions and type,
and as many spheres, hull triangles and wall triangles as the snapshot has; and ParaView itself
reading and rendering them where pvpython is installed, its counts of points, cells and
triangles those of the snapshot."""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import h5py
import matplotlib.image
import numpy as np
import pytest

from conftest import rubble_binary
from test_xdmf import XDMF_TYPES, paraview_command

SHAPES_SCRIPT = Path(__file__).resolve().parent / "paraview_shapes.py"

RUN = """
[integrator]
dt = 2e-3
n_steps = 40
[gravity]
backend = "none"
uniform_g = [0.0, 0.0, -9.81]
[collisions]
enabled = true
eps_n = 0.5
[output]
file = "{out}"
snapshot_interval = 0.04
[ic]
type = "table"
centre_of_mass_frame = false
[ic.table]
path = "{table}"
[[walls]]
type = "box"
min = [-0.5, -0.5, 0.0]
max = [0.5, 0.5, 1.0]
"""

# A free sphere and an aggregate of three spheres; a cube and a tetrahedron (the two models
# cannot share a run: polyhedra collide only with polyhedra and walls).
TABLES = {
    "spheres": "id,x,y,z,density,radius,parts\n1,0,0,0.3,2000,0.1,\n4,0,0.3,0.3,2000,,parts.csv\n",
    "hulls": "id,x,y,z,density,shape,size,axis_x,axis_y,axis_z,angle_deg\n"
             "2,0.3,0,0.3,2000,cube,0.1,1,1,0,30\n3,-0.3,0,0.3,2000,tetrahedron,0.12,0,0,1,10\n",
}
PARTS = "x,y,z,radius\n0,0,0,0.05\n0.1,0,0,0.05\n0.05,0.08,0,0.05\n"


def make_run(tmp_path: Path, kind: str) -> Path:
    (tmp_path / "parts.csv").write_text(PARTS)
    table = tmp_path / f"{kind}.csv"
    table.write_text(TABLES[kind])
    out = tmp_path / f"{kind}.h5"
    params = tmp_path / f"{kind}.toml"
    params.write_text(RUN.format(out=out, table=table))
    subprocess.run([rubble_binary(), "run", str(params), "--quiet"], check=True,
                   capture_output=True)
    return out


def expected_counts(run: Path, name: str) -> dict[str, int]:
    """Spheres, hull triangles and wall triangles of snapshot `name`, from the run file."""
    with h5py.File(run, "r") as f:
        snap = f["snapshots"][name]
        spheres = snap["spheres/radius"].shape[0]
        triangles = 0
        if "hulls" in snap:
            start = f["hull_shapes/triangle_start"][:]
            for shape in snap["hulls/shape"][:]:
                triangles += int(start[shape + 1] - start[shape])
    return {"spheres": spheres, "hulls": triangles, "walls": 12}  # a box: six rectangles


def check_sidecar(run: Path, kind: str) -> list[int]:
    """Checks RUN.KIND.xdmf against the files it names; returns each grid's element count."""
    root = ET.parse(run.with_suffix(f".{kind}.xdmf")).getroot()
    (collection,) = root.findall("Domain/Grid")
    assert collection.get("CollectionType") == "Temporal"
    grids = collection.findall("Grid")
    with h5py.File(run, "r") as f:
        names = sorted(f["snapshots"])
        assert [g.get("Name") for g in grids] == names
        times = [f["snapshots"][n].attrs["time"] for n in names]
    counts = []
    for grid, name, time in zip(grids, names, times):
        assert float(grid.find("Time").get("Value")) == time
        topology = grid.find("Topology")
        n = int(topology.get("NumberOfElements"))
        assert n == expected_counts(run, name)[kind]
        assert topology.get("TopologyType") == ("Polyvertex" if kind == "spheres" else "Triangle")
        for item in grid.iter("DataItem"):
            path, _, dataset = item.text.strip().partition(":")
            assert path == f"{run.stem}.shapes/{name}.h5"
            with h5py.File(run.parent / path, "r") as view:
                data = view[dataset]
                assert tuple(int(d) for d in item.get("Dimensions").split()) == data.shape
                assert (item.get("NumberType"), item.get("Precision")) == \
                    XDMF_TYPES[data.dtype.kind, data.dtype.itemsize]
                if dataset.endswith("triangles"):  # every index a vertex of the grid
                    vertices = view[dataset.replace("triangles", "vertices")].shape[0]
                    assert 0 <= data[:].min() and data[:].max() < vertices
        counts.append(n)
    return counts


def test_the_sidecars_list_every_snapshot_with_its_spheres_hulls_and_walls(tmp_path):
    spheres_run = make_run(tmp_path, "spheres")
    assert check_sidecar(spheres_run, "spheres") == [4] * 3  # the free sphere and three parts
    check_sidecar(spheres_run, "walls")
    assert not spheres_run.with_suffix(".hulls.xdmf").exists()
    hulls_run = make_run(tmp_path, "hulls")
    assert check_sidecar(hulls_run, "hulls") == [16] * 3  # a cube's 12 and a tetrahedron's 4
    assert not hulls_run.with_suffix(".spheres.xdmf").exists()
    # The spheres' centres are where the bodies put them: the aggregate's parts about its
    # centre of mass, each at its radius.
    with h5py.File(spheres_run, "r") as f, \
            h5py.File(tmp_path / "spheres.shapes/000001.h5", "r") as view:
        snap = f["snapshots/000001"]
        ids = snap["id"][:]
        body = snap["spheres/body"][:]
        assert list(view["spheres/body_id"][:]) == list(ids[body])
        np.testing.assert_allclose(view["spheres/radius"][:], snap["spheres/radius"][:], rtol=0)
        k = list(ids).index(4)
        parts = view["spheres/centre"][:][body == k]
        np.testing.assert_allclose(parts.mean(axis=0), snap["position"][k], atol=1e-15)


def test_paraview_reads_and_renders_every_shape(tmp_path):
    if shutil.which("pvpython") is None:
        pytest.skip("pvpython not installed (Debian: apt-get install python3-paraview xvfb); "
                    "the sidecars were checked against the files without it")
    spheres_run = make_run(tmp_path, "spheres")
    hulls_run = make_run(tmp_path, "hulls")
    files = [spheres_run.with_suffix(".spheres.xdmf"), hulls_run.with_suffix(".hulls.xdmf"),
             hulls_run.with_suffix(".walls.xdmf")]
    png = tmp_path / "shapes.png"
    command = paraview_command(files[0], png)
    script = command.index(str(files[0])) - 1
    command[script:] = [str(SHAPES_SCRIPT), str(png), *map(str, files)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert lines, (done.stdout + done.stderr)[-3000:]
    seen = json.loads(lines[-1])
    last = expected_counts(spheres_run, "000002")
    spheres = seen[str(files[0])]
    assert spheres["points"] == last["spheres"] == 4
    assert {"radius", "body_id"} <= set(spheres["point_arrays"])
    hulls = seen[str(files[1])]
    assert hulls["cells"] == hulls["triangles"] == expected_counts(hulls_run, "000002")["hulls"]
    assert hulls["points"] == 8 + 4  # each hull's own vertices
    assert "body_id" in hulls["cell_arrays"]
    walls = seen[str(files[2])]
    assert walls["cells"] == walls["triangles"] == 12
    assert "wall" in walls["cell_arrays"]
    if "--force-offscreen-rendering" in command and done.returncode != 0 and \
            "vtkXOpenGLRenderWindow" in done.stdout + done.stderr:
        pytest.skip("read the sidecars, but this pvpython renders through X only and there is "
                    "no display: install xvfb (xvfb-run) for the picture")
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    image = matplotlib.image.imread(png)
    drawn = np.any(np.abs(image[..., :3] - image[0, 0, :3]) > 0.05, axis=-1)
    assert drawn.sum() > 0, "nothing but background in the picture"
