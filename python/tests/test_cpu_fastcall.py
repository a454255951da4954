# SPDX-License-Identifier: Apache-2.0
# tcj._fastcall (python/tcj/_fastcall.c), the eager calls' per-call steps in C, on the CPU: its
# plan key is _calls._layout_of's, its descriptor and call are the Python path's, byte for byte
# (tcj_gemm_ex replaced by a ctypes callback that records what it gets), a failing status
# raises, and bad plans are refused. Under CI the module must have been built (the CMake build
# beside $TCJ_LIBRARY, which ensure-deps gives Python's headers).
import ctypes
import os

import pytest

from conftest import need

GEMM_EX = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)


@pytest.fixture
def fast(libtcj):
    from tcj import _calls
    if os.environ.get("TCJ_FASTCALL") == "0":
        pytest.skip("TCJ_FASTCALL=0 turns the module off")
    mod = _calls._fastcall_module()
    need(mod is not None, "tcj._fastcall was not built (no Python headers at build time?) and "
                          "is not beside $TCJ_LIBRARY's python/tcj")
    yield mod
    _calls._fast = _calls._NOT_LOADED  # the next call loads and configures it again


class Recorder:
    """A tcj_gemm_ex stand-in: keeps (engine, descriptor bytes, stream), returns status."""

    def __init__(self, libtcj, status=0):
        self.calls, self.status = [], status
        size = ctypes.sizeof(libtcj.GemmDesc)

        def record(engine, desc, stream):
            self.calls.append((engine or 0, ctypes.string_at(desc, size), stream or 0))
            return self.status
        self.fn = GEMM_EX(record)
        self.address = ctypes.cast(self.fn, ctypes.c_void_p).value


class Fake:
    """What _fastcall reads of a tensor: shape, stride(), dtype, get_device(), data_ptr()."""

    def __init__(self, shape, stride, dtype="bf16", device=0, ptr=0x1000):
        self.shape, self._stride, self.dtype, self._device, self._ptr = shape, stride, dtype, device, ptr

    def stride(self):
        return self._stride

    def get_device(self):
        return self._device

    def data_ptr(self):
        return self._ptr


def test_layout_key_is_the_python_one(fast):
    from tcj import _calls
    ts = (Fake((4, 8), (8, 1)), None, Fake((8,), (1,), "f32", 1))
    head = (("linear", "gelu", None), None, 0)
    assert fast.layout_key(head, ts) == head + tuple(_calls._layout_of(t) for t in ts)


def test_run_writes_addresses_and_passes_engine_and_stream(fast, libtcj):
    rec = Recorder(libtcj)
    fast.configure(rec.address, lambda index: 0x5000 + index)
    base = bytes(libtcj.new_desc())
    a, d = libtcj.GemmDesc.a.offset, libtcj.GemmDesc.d.offset
    plan = (base, ((a, 1, 0), (d, 0, 64)), 0xE000, 3)
    assert fast.run(plan, (Fake((1,), (1,), ptr=0x7000), Fake((1,), (1,), ptr=0x9000))) == 0
    engine, desc, stream = rec.calls[-1]
    got = libtcj.GemmDesc.from_buffer_copy(desc)
    assert (engine, stream, got.a, got.d) == (0xE000, 0x5003, 0x9000, 0x7040)
    # Everything else is the plan's descriptor as it was.
    want = libtcj.GemmDesc.from_buffer_copy(base)
    want.a, want.d = 0x9000, 0x7040
    assert desc == bytes(want)


def test_call_runs_a_stored_plan_and_returns_the_key_of_a_missing_one(fast, libtcj):
    rec = Recorder(libtcj, status=0)
    fast.configure(rec.address, lambda index: 0)

    class Stored:
        run = (bytes(libtcj.new_desc()), (), 0xE000, 0)
    ts = (Fake((2, 2), (2, 1)),)
    key = fast.call({}, ("k",), ts)
    assert key == ("k", ((2, 2), (2, 1), "bf16", 0)) and rec.calls == []
    assert fast.call({key: Stored()}, ("k",), ts) == 0 and len(rec.calls) == 1
    rec.status = 2
    assert fast.call({key: Stored()}, ("k",), ts) == 2


def test_call_new_makes_the_output_and_runs_the_stored_plan(fast, libtcj):
    rec = Recorder(libtcj, status=0)
    fast.configure(rec.address, lambda index: 0)
    made = []

    def make(*sizes, where):
        made.append((sizes, where))
        return Fake(sizes, (sizes[1], 1), ptr=0xD000 + 0x100 * len(made))
    d = libtcj.GemmDesc.d.offset
    a = libtcj.GemmDesc.a.offset

    class Stored:
        run = (bytes(libtcj.new_desc()), ((a, 0, 0), (d, 1, 0)), 0xE000, 0)
        new = (make, (2, 3), {"where": "here"})
    ts = (Fake((2, 2), (2, 1), ptr=0xA000),)
    key = fast.call_new({}, ("k",), ts)
    assert key == ("k", ((2, 2), (2, 1), "bf16", 0)) and rec.calls == [] and made == []
    out = fast.call_new({key: Stored()}, ("k",), ts)
    assert made == [((2, 3), "here")] and out.shape == (2, 3)
    got = libtcj.GemmDesc.from_buffer_copy(rec.calls[-1][1])
    assert (got.a, got.d) == (0xA000, out.data_ptr())  # the output is the last slot
    rec.status = 2
    assert fast.call_new({key: Stored()}, ("k",), ts) == 2 and len(rec.calls) == 2
    Stored.new = (make, [2, 3], None)
    with pytest.raises(ValueError, match="new"):
        fast.call_new({key: Stored()}, ("k",), ts)


def test_bad_plans_are_refused(fast, libtcj):
    rec = Recorder(libtcj)
    fast.configure(rec.address, lambda index: 0)
    base = bytes(libtcj.new_desc())
    t = (Fake((1,), (1,)),)
    with pytest.raises(ValueError, match="bytes of a tcj_gemm_desc"):
        fast.run((base[:-8], (), 0, 0), t)
    with pytest.raises(ValueError, match="outside"):
        fast.run((base, ((len(base), 0, 0),), 0, 0), t)
    with pytest.raises(ValueError, match="outside"):
        fast.run((base, ((0, 1, 0),), 0, 0), t)  # no tensor in slot 1
    with pytest.raises(ValueError, match="outside"):
        fast.run((base, ((4, 0, 0),), 0, 0), t)  # not an 8-byte field
    with pytest.raises(ValueError):
        fast.configure(0, lambda index: 0)
    assert rec.calls == []


def both_paths(fast, libtcj, monkeypatch):
    """CPU tensors planned as if on CUDA device 0 (engine 0xE000, stream 77), empty plan
    caches, and both paths recorded: (torch, _calls, the fast path's Recorder, the Python
    path's list of (descriptor bytes, stream))."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    from tcj import _calls
    monkeypatch.setattr(_calls, "_device", lambda named: torch.device("cuda", 0))
    monkeypatch.setattr(_calls, "_engine_address", lambda index: 0xE000)
    monkeypatch.setattr(_calls, "_plans", {})
    monkeypatch.setattr(_calls, "_new_plans", {})
    rec = Recorder(libtcj)
    fast.configure(rec.address, lambda index: 77)
    python_path = []
    monkeypatch.setattr(libtcj, "gemm_ex", lambda i, d, s: python_path.append((bytes(d), s)))
    monkeypatch.setattr(_calls, "_current_stream", lambda index: 77)
    return torch, _calls, rec, python_path


def test_the_fast_path_launches_what_the_python_path_does(fast, libtcj, monkeypatch):
    torch, _calls, rec, python_path = both_paths(fast, libtcj, monkeypatch)
    bf = torch.bfloat16

    def tensors():
        return dict(
            x=torch.randn(3, 5, 64, dtype=bf)[:, 1:], w=torch.randn(48, 64, dtype=bf),
            bias=torch.randn(96, dtype=bf)[48:], y=torch.empty(3, 4, 48, dtype=bf),
            a=torch.randn(70, 32, dtype=bf), wg=torch.randn(4, 16, 32, dtype=bf).transpose(1, 2),
            offs=torch.tensor([5, 5, 40, 70], dtype=torch.int32),
            gat=torch.randint(0, 70, (70,), dtype=torch.int32), rs=torch.rand(70),
            g=torch.empty(70, 16, dtype=bf), am=torch.randn(2, 7, 12, dtype=bf),
            bm=torch.randn(12, 9, dtype=bf), c=torch.randn(2, 7, 9), dm=torch.empty(2, 7, 9))

    def each_op(t):
        _calls.linear_into(t["y"], t["x"], t["w"], t["bias"], "gelu")
        _calls.grouped_mm_into(t["g"], t["a"], t["wg"], offs=t["offs"], gather=t["gat"],
                               row_scale=t["rs"], activation="relu")
        _calls.matmul_into(t["dm"], t["am"], t["bm"], c=t["c"], alpha=0.5, beta=2.0)

    for trial in range(2):  # the second trial runs the cached plans, on other tensors
        t = tensors()
        for use_fast in (True, False):
            _calls._fast = fast if use_fast else None
            each_op(t)
        fast_descs = [(d, s) for _, d, s in rec.calls[-3:]]
        assert len(rec.calls) == 3 * (trial + 1) and len(python_path) == 3 * (trial + 1)
        assert fast_descs == python_path[-3:], f"trial {trial}"
        assert all(e == 0xE000 for e, _, _ in rec.calls[-3:])
        got = libtcj.GemmDesc.from_buffer_copy(rec.calls[-3][1])  # addresses, not stand-ins
        assert got.d == t["y"].data_ptr() and got.bias == t["bias"].data_ptr()
        assert {got.a, got.b} == {t["x"].data_ptr(), t["w"].data_ptr()}
    assert len(_calls._plans) == 3  # one key per layout, the same from both paths


def test_calls_that_make_their_output_launch_what_out_calls_do(fast, libtcj, monkeypatch):
    """The *_new calls (tcj.linear, matmul, scaled_mm and grouped_mm without out=), through the
    fast and the Python path, hand tcj_gemm_ex the descriptor that the *_into calls do with an
    output of the same layout, but for D's address, which is the new output's; the output has
    the meta's shape and dtype, and each layout is planned once."""
    torch, _calls, rec, python_path = both_paths(fast, libtcj, monkeypatch)
    bf = torch.bfloat16
    d_at = libtcj.GemmDesc.d.offset

    def without_d(desc):
        return desc[:d_at] + bytes(8) + desc[d_at + 8:]
    x, w = torch.randn(3, 5, 64, dtype=bf)[:, 1:], torch.randn(48, 64, dtype=bf)
    bias = torch.randn(96, dtype=bf)[48:]
    am, bm, c = torch.randn(2, 7, 12, dtype=bf), torch.randn(12, 9, dtype=bf), torch.randn(2, 7, 9)
    a, wg = torch.randn(70, 32, dtype=bf), torch.randn(4, 16, 32, dtype=bf).transpose(1, 2)
    offs, rs = torch.tensor([5, 5, 40, 70], dtype=torch.int32), torch.rand(70)
    gat = torch.randint(0, 70, (70,), dtype=torch.int32)
    f8 = torch.float8_e4m3fn
    a8, b8 = torch.randn(16, 64).to(f8), torch.randn(32, 64).to(f8).t()
    sa, sb = torch.rand(1), torch.rand(1)
    cases = [
        (lambda: _calls.grouped_mm_new(a, wg, offs, None, None, "relu", rs, gat, 0, 0, None, None,
                                       None, None, None),
         lambda out: _calls.grouped_mm_into(out, a, wg, offs=offs, gather=gat, row_scale=rs,
                                            activation="relu"), ((70, 16), bf)),
        (lambda: _calls.scaled_mm_new(a8, b8, sa, sb, None, None, None, None, True, None),
         lambda out: _calls.scaled_mm_into(out, a8, b8, sa, sb, fast_accum=True), ((16, 32), bf)),
        (lambda: _calls.linear_new(x, w, bias, "gelu", None, None),
         lambda out: _calls.linear_into(out, x, w, bias, "gelu"), ((3, 4, 48), bf)),
        (lambda: _calls.linear_new(x, w, None, "none", torch.float32, None),
         lambda out: _calls.linear_into(out, x, w, None), ((3, 4, 48), torch.float32)),
        # The same inputs, another out_dtype: another plan (the key holds out_dtype).
        (lambda: _calls.linear_new(x, w, None, "none", None, None),
         lambda out: _calls.linear_into(out, x, w, None), ((3, 4, 48), bf)),
        (lambda: _calls.matmul_new(am, bm, c, None, "none", 0.5, 2.0, torch.float32, None, 0,
                                   None),
         lambda out: _calls.matmul_into(out, am, bm, c=c, alpha=0.5, beta=2.0),
         ((2, 7, 9), torch.float32)),
    ]
    for new, into, (shape, dtype) in cases:
        descs = []
        for use_fast in (True, False, True, False):  # a new plan, then the stored one, each way
            _calls._fast = fast if use_fast else None
            before = len(rec.calls) + len(python_path)
            out = new()
            assert tuple(out.shape) == shape and out.dtype == dtype and out.is_contiguous()
            assert len(rec.calls) + len(python_path) == before + 1
            desc = rec.calls[-1][1] if use_fast else python_path[-1][0]
            assert libtcj.GemmDesc.from_buffer_copy(desc).d == out.data_ptr()
            descs.append(without_d(desc))
        _calls._fast = fast
        into(torch.empty(shape, dtype=dtype))
        assert descs == [without_d(rec.calls[-1][1])] * 4
        if new is cases[0][0]:
            descs_of_first = descs[0]
    assert len(_calls._new_plans) == 6 and len(_calls._plans) == 6
    # The torch.library ops (what torch.compile's graphs and autograd's backward call) run the
    # same plans: the first case's layout again, through tcj::grouped_mm, and tcj::linear's.
    from tcj import _torch  # noqa: F401  registers torch.ops.tcj.*
    out = torch.ops.tcj.grouped_mm(a, wg, offs, None, None, "relu", rs, gat, 0, 0, None, None,
                                   None, None)
    assert tuple(out.shape) == (70, 16) and len(_calls._new_plans) == 6
    assert without_d(rec.calls[-1][1]) == descs_of_first
    out = torch.ops.tcj.linear(x, w, bias, "gelu", None, None)
    assert tuple(out.shape) == (3, 4, 48) and len(_calls._new_plans) == 6
    assert libtcj.GemmDesc.from_buffer_copy(rec.calls[-1][1]).d == out.data_ptr()


def test_the_public_ops_pass_every_compute_name_once_normalised(fast, libtcj, monkeypatch):
    """tcj.linear and tcj.matmul, eager, with out= and without: each compute keyword reaches
    the descriptor as its Compute member, the same either way (a name normalised twice, e.g.
    "tf32" -> "F32_FAST_TF32" -> error, must not happen)."""
    torch, _calls, rec, _ = both_paths(fast, libtcj, monkeypatch)
    from tcj import _layout, ops
    monkeypatch.setattr(ops, "_eager", lambda *tensors, recorded=False: True)  # CPU tensors
    _calls._fast = fast
    x, w = torch.randn(4, 8), torch.randn(6, 8)
    for name in (None, "default", "f32", "3xtf32", "tf32"):
        want = int(libtcj.Compute[_layout.compute(name)]) if name else 0
        for call in (lambda: ops.linear(x, w, compute=name),
                     lambda: ops.linear(x, w, out=torch.empty(4, 6), compute=name),
                     lambda: ops.matmul(x, w.t(), compute=name),
                     lambda: ops.matmul(x, w.t(), out=torch.empty(4, 6), compute=name)):
            call()
            assert libtcj.GemmDesc.from_buffer_copy(rec.calls[-1][1]).compute == want, name


def test_a_failing_status_raises_the_library_error(fast, libtcj, monkeypatch):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    from tcj import _calls
    monkeypatch.setattr(_calls, "_device", lambda named: torch.device("cuda", 0))
    monkeypatch.setattr(_calls, "_engine_address", lambda index: 0xE000)
    monkeypatch.setattr(_calls, "_plans", {})
    rec = Recorder(libtcj, status=int(libtcj.Status.ERROR_NOT_SUPPORTED))
    fast.configure(rec.address, lambda index: 0)
    _calls._fast = fast
    x, w = torch.randn(4, 8), torch.randn(6, 8)
    monkeypatch.setattr(_calls, "_new_plans", {})
    for _ in range(2):  # a new plan, then the stored one
        with pytest.raises(libtcj.TcjError):
            _calls.linear_into(torch.empty(4, 6), x, w)
        with pytest.raises(libtcj.TcjError):
            _calls.linear_new(x, w, None, "none", None, None)
    assert len(rec.calls) == 4


def test_tcj_fastcall_0_turns_it_off(libtcj, monkeypatch):
    from tcj import _calls
    monkeypatch.setenv("TCJ_FASTCALL", "0")
    assert _calls._load_fastcall() is None
