#!/usr/bin/env python3
# Whether two rubble run files hold the same numbers in every dataset, bit for bit (NaN equal
# to NaN): python3 same_h5.py A.h5 B.h5. Attributes (the stored parameters name output.file)
# are not compared.
import sys

import h5py
import numpy as np

a, b = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r')
bad = []
def visit(name, obj):
    if isinstance(obj, h5py.Dataset):
        x, y = obj[()], b[name][()]
        if not (np.array_equal(x, y) or (x.dtype.kind == 'f' and np.array_equal(x, y, equal_nan=True))):
            bad.append(name)
a.visititems(visit)
print(sys.argv[2], "bitwise equal to", sys.argv[1], "in every dataset" if not bad else "DIFFERS in " + ", ".join(bad[:5]))
