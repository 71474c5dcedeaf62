"""A software prefetch for the numba kernels: ``prefetch(array, index)``.

Asks the processor to bring ``array[index]`` into cache (LLVM's
``llvm.prefetch``, a hint: no fault, no effect on any result). CFR's
backward sweep (:mod:`spiel_ext.engine.stack_passes`) reads each edge's
policy entry somewhere in a table of many megabytes on a large game, and
the loads of one history depend on the last's, so the processor cannot run
far enough ahead to overlap those misses itself. Fetching the entry of the
history 16 steps ahead made the sweep about 1.2x faster on a 2.3M-history
battleship (23 MB policy).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["prefetch"]

# llvm.prefetch(address, rw = 0 (read), locality = 3 (keep in all caches),
# cache type = 1 (data)).
_READ, _KEEP, _DATA = 0, 3, 1


@intrinsic
def prefetch(typingctx, array, index):  # pylint: disable=unused-argument
  """Prefetches ``array[index]`` (a 1-D array, an in-range integer index)."""
  signature = types.void(array, index)

  def codegen(context, builder, sig, args):
    array_type = sig.args[0]
    array_value = context.make_array(array_type)(context, builder, args[0])
    pointer = cgutils.get_item_pointer(context, builder, array_type,
                                       array_value, [args[1]],
                                       wraparound=False)
    byte_pointer = ir.IntType(8).as_pointer()
    int32 = ir.IntType(32)
    function = cgutils.get_or_insert_function(
        builder.module,
        ir.FunctionType(ir.VoidType(), [byte_pointer, int32, int32, int32]),
        "llvm.prefetch.p0i8")
    builder.call(function, [builder.bitcast(pointer, byte_pointer),
                            ir.Constant(int32, _READ),
                            ir.Constant(int32, _KEEP),
                            ir.Constant(int32, _DATA)])
    return context.get_dummy_value()

  return signature, codegen
