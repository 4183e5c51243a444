"""The bridge to the C++ library (flashattn._C): torch tensors become (data_ptr, dtype, shape,
strides) tuples, calls run on the tensors' device (CPU backend, or CUDA on the current stream with
PyTorch's caching allocator for scratch), library errors become FlashAttnError, and dropout seeds
come from torch's generators."""

import torch

from . import _C

_DTYPE_CODES = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2}
_U64 = (1 << 64) - 1


class FlashAttnError(ValueError, RuntimeError):
    """A rejected argument: the message names the argument and the rule it broke.

    A ValueError (the library's flashattn::Error) and, for code written against flash_attn whose
    checks raise RuntimeError, a RuntimeError too."""


def fail(message):
    raise FlashAttnError("flashattn: " + message)


def view(t):
    """The tuple _C reads a tensor from; None stays None. Strides are in elements."""
    if t is None:
        return None
    return (t.data_ptr(), _DTYPE_CODES.get(t.dtype, -1), list(t.shape), list(t.stride()))


def cu_view(t):
    return None if t is None else t.data_ptr()


class _CachingAllocator:
    """Scratch memory for the CUDA backend from PyTorch's caching allocator, on the current stream:
    the library frees a block once its work is queued, and the caching allocator reuses a block
    only in stream order, so no synchronization is needed."""

    def __init__(self, device):
        self.device = device
        self.live = {}

    def alloc(self, nbytes):
        t = torch.empty(int(nbytes), dtype=torch.uint8, device=self.device)
        self.live[t.data_ptr()] = t
        return t.data_ptr()

    def free(self, ptr):
        self.live.pop(ptr, None)


def _context(device):
    if device.type == "cpu":
        return {"device": "cpu", "num_threads": torch.get_num_threads()}
    if device.type == "cuda":
        if not _C.built_with_cuda:
            fail(
                "tensors are on %s but this flashattn was built without the CUDA backend "
                "(no nvcc at install time, or FLASHATTN_CUDA=OFF): reinstall on a machine with nvcc" % device
            )
        return {
            "device": "cuda",
            "cuda_stream": torch.cuda.current_stream(device).cuda_stream,
            "allocator": _CachingAllocator(device),
        }
    fail("tensors on %s are not supported (CPU and CUDA only)" % device)


def _call(fn, device, *args, **kwargs):
    kwargs.update(_context(device))
    try:
        if device.type == "cuda":
            with torch.cuda.device(device):
                return fn(*args, **kwargs)
        return fn(*args, **kwargs)
    except ValueError as e:  # flashattn::Error
        raise FlashAttnError(str(e)) from None


def forward(device, q, k, v, out, lse, **kwargs):
    return _call(_C.forward, device, view(q), view(k), view(v), view(out), view(lse), **kwargs)


def backward(device, q, k, v, out, dout, lse, dq, dk, dv, **kwargs):
    return _call(
        _C.backward, device, view(q), view(k), view(v), view(out), view(dout), view(lse),
        view(dq), view(dk), view(dv), **kwargs,
    )


def attention_probs(q, k, v, out, probs, **kwargs):
    """Host tensors only (the caller copies device tensors)."""
    try:
        _C.attention_probs(view(q), view(k), view(v), view(out), view(probs), **kwargs)
    except ValueError as e:
        raise FlashAttnError(str(e)) from None


def next_dropout_state(device, increment):
    """(seed, offset) for one call that consumes `increment` Philox counter values.

    CUDA: the device's default generator (its seed, and its Philox offset advanced past this call),
    so torch.manual_seed / torch.cuda.manual_seed make runs reproducible. CPU: a fresh 63-bit seed
    drawn from the CPU default generator, offset 0."""
    if device.type == "cuda":
        index = device.index if device.index is not None else torch.cuda.current_device()
        gen = torch.cuda.default_generators[index]
        if hasattr(gen, "get_offset"):
            offset = gen.get_offset()
            gen.set_offset(offset + (increment + 3) // 4 * 4)  # CUDA generator offsets step by 4
            return gen.initial_seed() & _U64, offset
    seed = int(torch.randint(0, (1 << 63) - 1, (), dtype=torch.int64).item())
    return seed, 0


def pack_rng(seed, offset):
    """(seed, offset) as an int64 CPU tensor of 2 (two's complement for values >= 2^63)."""
    signed = [x - (1 << 64) if x >= (1 << 63) else x for x in (seed, offset)]
    return torch.tensor(signed, dtype=torch.int64)


def unpack_rng(rng_state):
    seed, offset = rng_state.tolist()
    return seed & _U64, offset & _U64
