# SPDX-License-Identifier: Apache-2.0
# CPU tests of tcj's tensor API: the layout rules (strides to tcj_gemm_desc fields, errors
# naming the tensor), output shapes, and with torch (meta tensors) the torch.library ops'
# fake implementations, torch.compile(fullgraph=True) tracing, backward shapes and tcj.nn.
import ctypes
import sys
import types

import pytest

from tcj import _layout
from tcj._layout import Info


def info(name, shape, strides=None, dtype="bfloat16", ptr=0x1000):
    if strides is None:
        strides, s = [], 1
        for n in reversed(shape):
            strides.insert(0, s)
            s *= n
    return Info(name, tuple(shape), tuple(strides), dtype, ptr)


# ---- pure layout rules ----------------------------------------------------------------------

def test_row_major_matrix_is_op_n_with_its_row_stride():
    assert _layout.mat(info("a", (4, 8))) == ("N", 8)
    assert _layout.mat(info("a", (4, 8), (16, 1))) == ("N", 16)  # a column slice of [4, 16]


def test_transposed_view_is_op_t_without_a_copy():
    assert _layout.mat(info("b", (8, 4), (1, 8))) == ("T", 8)
    assert _layout.mat(info("b", (8, 4), (1, 32))) == ("T", 32)


def test_column_major_order_swaps_the_ops():
    assert _layout.mat(info("a", (4, 8)), col_major=True) == ("T", 8)
    assert _layout.mat(info("a", (4, 8), (1, 4)), col_major=True) == ("N", 4)


def test_strides_fitting_neither_layout_name_the_tensor():
    with pytest.raises(ValueError, match=r"^weight: strides \(2, 16\)"):
        _layout.mat(info("weight", (8, 4), (2, 16)))
    with pytest.raises(ValueError, match="x:"):
        _layout.mat(info("x", (4, 8), (4, 1)))  # rows overlap: ld 4 < 8 columns


def test_size_one_dimensions_take_any_stride():
    assert _layout.mat(info("a", (1, 8), (999, 1))) == ("N", 8)
    assert _layout.mat(info("a", (8, 1), (1, 999))) == ("N", 1)  # a column: ld 1 fits


def test_leading_dimensions_collapse_into_one_batch_stride():
    assert _layout.batch(info("a", (2, 3, 4, 5))) == (6, 20)
    assert _layout.batch(info("a", (2, 3, 4, 5), (0, 0, 5, 1))) == (6, 0)
    with pytest.raises(ValueError, match="a: leading dimensions"):
        _layout.batch(info("a", (2, 3, 4, 5), (20, 40, 5, 1)))


def test_linear_folds_leading_dimensions_into_rows():
    x = info("x", (2, 3, 64))
    w = info("weight", (128, 64))
    d = info("out", (2, 3, 128))
    p = _layout.plan_linear(x, w, d, bias=info("bias", (128,)), act="gelu")
    assert (p["m"], p["n"], p["k"]) == (6, 128, 64)
    assert (p["op_a"], p["lda"], p["op_b"], p["ldb"], p["ldd"]) == ("N", 64, "T", 64, 128)
    assert p["order"] == "ROW_MAJOR" and "batch_count" not in p
    assert (p["bias_kind"], p["bias_type"], p["activation"]) == ("COL", "BF16", "GELU")


def test_linear_of_a_permuted_input_is_a_strided_batch():
    # x = contiguous [B=2, S=3, K].transpose(0, 1): rows (B) S*K apart, batch (S) K apart
    x = info("x", (3, 2, 64), (64, 192, 1))
    p = _layout.plan_linear(x, info("weight", (128, 64)), info("out", (3, 2, 128)))
    assert (p["batch_count"], p["m"], p["lda"], p["stride_a"]) == (3, 2, 192, 64)
    assert (p["stride_b"], p["stride_d"], p["ldd"]) == (0, 256, 128)


def test_linear_of_a_weight_stored_k_by_n_is_op_b_n():
    w = info("weight", (128, 64), (1, 128))  # w = w_kn.t(), w_kn [64, 128] contiguous
    p = _layout.plan_linear(info("x", (4, 64)), w, info("out", (4, 128)))
    assert (p["op_b"], p["ldb"]) == ("N", 128)


def test_column_major_output_selects_column_major_order():
    a, b = info("a", (4, 8)), info("b", (8, 16))
    d = info("out", (4, 16), (1, 4))
    p = _layout.plan_matmul(a, b, d)
    assert (p["order"], p["ldd"], p["op_a"], p["op_b"]) == ("COL_MAJOR", 4, "T", "T")


def test_matmul_broadcasts_batches_with_stride_zero():
    a = info("a", (5, 4, 8), (0, 8, 1))  # expand of one matrix
    b = info("b", (5, 8, 16))
    p = _layout.plan_matmul(a, b, info("out", (5, 4, 16)))
    assert (p["batch_count"], p["stride_a"], p["stride_b"], p["stride_d"]) == (5, 0, 128, 64)


def test_matmul_checks_shapes_and_output():
    with pytest.raises(ValueError, match="inner dimensions 8 and 9"):
        _layout.matmul_shape((4, 8), (9, 2))
    with pytest.raises(ValueError, match="out: shape"):
        _layout.plan_matmul(info("a", (4, 8)), info("b", (8, 2)), info("out", (4, 3)))
    with pytest.raises(ValueError, match="beta != 0 needs c"):
        _layout.plan_matmul(info("a", (4, 8)), info("b", (8, 2)), info("out", (4, 2)), beta=1)
    with pytest.raises(ValueError, match="activation 'tanh'"):
        _layout.activation("tanh")


def test_swiglu_halves_the_columns_and_takes_2n_bias():
    assert _layout.linear_shape((3, 64), (256, 64), "swiglu") == (3, 128)
    with pytest.raises(ValueError, match="bias: 128 values, expected 256"):
        _layout.plan_linear(info("x", (3, 64)), info("weight", (256, 64)), info("out", (3, 128)),
                            bias=info("bias", (128,)), act="swiglu")


def test_grouped_contiguous_with_nn_linear_weights():
    g, n, k, m = 8, 128, 64, 100
    w = info("b", (g, k, n), (n * k, 1, k))  # [G, N, K].transpose(1, 2)
    for dt, key in (("int32", "group_ends32"), ("int64", "group_ends64")):
        p = _layout.plan_grouped(info("a", (m, k)), w, info("out", (m, n)),
                                 offs=info("offs", (g,), dtype=dt, ptr=0x2000),
                                 bias=info("bias", (g, n)), act="silu")
        assert p["group_mode"] == "M_CONTIGUOUS" and p[key] == 0x2000
        assert (p["op_b"], p["ldb"], p["stride_b"], p["stride_bias"]) == ("T", k, n * k, n)
        assert (p["m"], p["n"], p["k"], p["group_count"]) == (m, n, k, g)


def test_grouped_gather_rows_are_the_problems_rows():
    """With gather, a holds gather_rows rows and the problem (D, row_scale) one per index."""
    g, n, k, rows, m = 4, 32, 64, 50, 235
    w = info("b", (g, k, n), (n * k, 1, k))
    p = _layout.plan_grouped(info("a", (rows, k)), w, info("out", (m, n)),
                             offs=info("offs", (g,), dtype="int32"),
                             row_scale=info("row_scale", (m,), dtype="float32"),
                             gather=info("gather", (m,), dtype="int32"), gather_rows=rows)
    assert (p["m"], p["gather_a_rows"]) == (m, rows)
    assert _layout.problem_rows_shape((rows, k), info("gather", (m,), dtype="int32")) == (m, k)
    with pytest.raises(ValueError, match=r"out: shape \(50, 32\), expected \(235, 32\)"):
        _layout.plan_grouped(info("a", (rows, k)), w, info("out", (rows, n)),
                             offs=info("offs", (g,), dtype="int32"),
                             gather=info("gather", (m,), dtype="int32"), gather_rows=rows)


def test_grouped_scatter_takes_out_of_any_rows_and_names_what_it_refuses():
    """scatter: out is an [R, N] of any R (float32 to add into), the indices one per problem
    row; contiguous groups only; the refusals name the tensor."""
    g, n, k, m, tokens = 4, 32, 64, 80, 10
    w = info("b", (g, k, n), (n * k, 1, k))  # nn.Linear weights [G, N, K] transposed
    offs = info("offs", (g,), dtype="int32")
    idx = info("scatter", (m,), dtype="int32", ptr=0x3000)
    out = info("out", (tokens, n), dtype="float32", ptr=0x4000)
    p = _layout.plan_grouped(info("a", (m, k)), w, out, offs=offs,
                             row_scale=info("row_scale", (m,), dtype="float32"), scatter=idx,
                             scatter_mode="add")
    assert (p["m"], p["scatter_d"], p["scatter_d_rows"], p["d_type"]) == (m, 0x3000, tokens, "F32")
    assert p["scatter_mode"] == "ADD"
    gat = info("gather", (m,), dtype="int32", ptr=0x3000)  # the same token indices gather and add
    p = _layout.plan_grouped(info("a", (tokens, k)), w, out, offs=offs, gather=gat,
                             gather_rows=tokens, scatter=idx, scatter_mode="add")
    assert (p["gather_a_rows"], p["scatter_d_rows"]) == (tokens, tokens)
    with pytest.raises(ValueError, match=r"out: bfloat16; scatter_add adds into float32"):
        _layout.plan_grouped(info("a", (m, k)), w, info("out", (tokens, n)), offs=offs,
                             scatter=idx, scatter_mode="add")
    # Stored rows: any output type, any number of rows (a permutation's m, or more).
    p = _layout.plan_grouped(info("a", (m, k)), w, info("out", (m + 3, n)), offs=offs, scatter=idx)
    assert (p["scatter_d_rows"], p["scatter_mode"], p["d_type"]) == (m + 3, "STORE", "BF16")
    with pytest.raises(ValueError, match=r"scatter_mode 'sum': 'store' or 'add'"):
        _layout.plan_grouped(info("a", (m, k)), w, out, offs=offs, scatter=idx, scatter_mode="sum")
    with pytest.raises(ValueError, match=r"out: shape \(10, 31\), expected \[rows >= 1, 32\]"):
        _layout.plan_grouped(info("a", (m, k)), w, info("out", (tokens, 31), dtype="float32"),
                             offs=offs, scatter=idx)
    with pytest.raises(ValueError, match=r"scatter: a contiguous 1-D int32 tensor of 80"):
        _layout.plan_grouped(info("a", (m, k)), w, out, offs=offs,
                             scatter=info("scatter", (m - 1,), dtype="int32"))
    with pytest.raises(ValueError, match=r"scatter: a contiguous 1-D int32"):
        _layout.plan_grouped(info("a", (m, k)), w, out, offs=offs,
                             scatter=info("scatter", (m,), dtype="int64"))
    with pytest.raises(ValueError, match=r"scatter: scattered rows take contiguous groups"):
        _layout.plan_grouped(info("a", (g, 16, k)), w, out,
                             counts=info("counts", (g,), dtype="int32"),
                             scatter=info("scatter", (16,), dtype="int32"))


def test_grouped_masked_and_k_modes():
    g, m, n, k = 4, 16, 32, 64
    p = _layout.plan_grouped(info("a", (g, m, k)), info("b", (g, k, n)), info("out", (g, m, n)),
                             counts=info("counts", (g,), dtype="int32"))
    assert (p["group_mode"], p["stride_a"], p["stride_d"], p["op_b"]) == ("M_MASKED", m * k, m * n, "N")
    dy = info("a", (n, 300), (1, n))  # dy [300, n] row-major seen as [n, 300]
    x = info("b", (300, k))
    p = _layout.plan_grouped(dy, x, info("out", (g, n, k)), offs=info("offs", (g,), dtype="int64"))
    assert (p["group_mode"], p["op_a"], p["lda"], p["op_b"], p["k"]) == ("K_CONTIGUOUS", "T", n, "N", 300)
    with pytest.raises(ValueError, match="a: K groups read a"):
        _layout.plan_grouped(info("a", (n, 300)), x, info("out", (g, n, k)),
                             offs=info("offs", (g,), dtype="int64"))


def test_grouped_argument_errors():
    a, b, d = info("a", (10, 8)), info("b", (2, 8, 4)), info("out", (10, 4))
    offs = info("offs", (2,), dtype="int32")
    with pytest.raises(ValueError, match="exactly one of offs"):
        _layout.plan_grouped(a, b, d)
    with pytest.raises(ValueError, match="exactly one of offs"):
        _layout.plan_grouped(a, b, d, offs=offs, counts=offs)
    with pytest.raises(ValueError, match="offs: int32 or int64"):
        _layout.plan_grouped(a, b, d, offs=info("offs", (2,), dtype="float32"))
    with pytest.raises(ValueError, match="a: masked groups"):
        _layout.plan_grouped(a, b, d, counts=offs)
    with pytest.raises(ValueError, match="out: grouped calls write row-major"):
        _layout.plan_grouped(a, b, info("out", (10, 4), (1, 10)), offs=offs)
    with pytest.raises(ValueError, match="row_scale: 9 values, expected 10"):
        _layout.plan_grouped(a, b, d, offs=offs, row_scale=info("row_scale", (9,), dtype="float32"))


def test_scale_modes_follow_the_scale_sizes():
    assert _layout.scale_mode_of(info("sa", (1,)), info("sb", (1,)), 64, 32, 256) == "TENSOR"
    assert _layout.scale_mode_of(info("sa", (64, 1)), info("sb", (1, 32)), 64, 32, 256) == "ROW"
    assert _layout.scale_mode_of(info("sa", (64, 2)), info("sb", (1, 2)), 64, 32, 256) == "BLOCK"
    with pytest.raises(ValueError, match="fit no scale mode"):
        _layout.scale_mode_of(info("sa", (3,)), info("sb", (1,)), 64, 32, 256)
    p = _layout.plan_scaled_mm(info("a", (64, 256), dtype="float8_e4m3fn"),
                               info("b", (256, 32), (1, 256), dtype="float8_e4m3fn"),
                               info("out", (64, 32)), info("sa", (1,), dtype="float32", ptr=8),
                               info("sb", (1,), dtype="float32", ptr=16), fast_accum=True)
    assert (p["scale_mode"], p["scale_a"], p["scale_b"], p["fast_accum"], p["op_b"]) == ("TENSOR", 8, 16, 1, "T")


def test_grouped_fp8_per_expert_scales_set_stride_scale_b():
    g, m, n, k = 4, 64, 32, 128
    p = _layout.plan_grouped(info("a", (m, k), dtype="float8_e4m3fn"),
                             info("b", (g, k, n), (n * k, 1, k), dtype="float8_e4m3fn"),
                             info("out", (m, n)), offs=info("offs", (g,), dtype="int32"),
                             scale_a=info("sa", (m,), dtype="float32"),
                             scale_b=info("sb", (g, n), dtype="float32"))
    assert (p["scale_mode"], p["stride_scale_b"]) == ("ROW", n)


def test_float64_takes_its_scalars_in_the_f64_fields():
    p = _layout.plan_matmul(info("a", (4, 8), dtype="float64"), info("b", (8, 2), dtype="float64"),
                            info("out", (4, 2), dtype="float64"), c=info("c", (4, 2), dtype="float64"),
                            alpha=0.5, beta=2.0)
    assert (p["alpha_f64"], p["beta_f64"]) == (0.5, 2.0) and "alpha" not in p and "beta" not in p


# ---- writing a plan into the descriptor -----------------------------------------------------

class _StandInDesc(ctypes.Structure):
    _fields_ = [("op_a", ctypes.c_int), ("a", ctypes.c_void_p), ("m", ctypes.c_int64),
                ("alpha", ctypes.c_float), ("scale_a", ctypes.POINTER(ctypes.c_float)),
                ("epilogue_source", ctypes.c_char_p)]


def test_apply_converts_enum_names_and_pointers(monkeypatch):
    import enum
    import tcj
    from tcj import _calls
    fake = types.SimpleNamespace(Op=enum.IntEnum("Op", [("N", 0), ("T", 1)]))
    monkeypatch.setitem(sys.modules, "tcj._lib", fake)
    monkeypatch.setattr(tcj, "_lib", fake, raising=False)
    d, keep = _StandInDesc(), []
    _calls._apply(d, {"op_a": "T", "a": 0x1234, "m": 7, "alpha": 0.5, "scale_a": 0x40,
                   "epilogue_source": "src"}, keep)
    assert (d.op_a, d.a, d.m, d.alpha, d.epilogue_source) == (1, 0x1234, 7, 0.5, b"src")
    assert ctypes.cast(d.scale_a, ctypes.c_void_p).value == 0x40 and keep == [b"src"]


def test_apply_fills_the_real_descriptor_when_the_binding_is_there():
    lib = pytest.importorskip("tcj._lib", reason="tcj._lib (the ctypes binding) not in this tree")
    if not hasattr(lib, "GemmDesc"):
        pytest.skip("tcj._lib has no GemmDesc")
    from tcj import _calls
    d = lib.GemmDesc()
    p = _layout.plan_grouped(info("a", (10, 8)), info("b", (2, 8, 4), (32, 1, 8)),
                             info("out", (10, 4), ptr=0x3000), offs=info("offs", (2,), dtype="int32", ptr=0x4000),
                             act="relu", row_scale=info("rs", (10,), dtype="float32", ptr=0x5000))
    _calls._apply(d, p, [])
    assert d.group_mode == lib.GroupMode.M_CONTIGUOUS and d.op_b == lib.Op.T
    assert d.activation == lib.Act.RELU and d.group_count == 2 and d.ldb == 8
    assert ctypes.cast(d.group_ends32, ctypes.c_void_p).value == 0x4000
    assert ctypes.cast(d.row_scale, ctypes.c_void_p).value == 0x5000


# ---- with torch: meta tensors, fake implementations, torch.compile ------------------------

def _torch():
    return pytest.importorskip("torch", reason="torch is not installed (the torch tests need it)")


def test_import_without_torch_in_a_subprocess():
    import subprocess
    code = ("import sys; sys.modules['torch'] = None\n"
            "import tcj.ops, tcj._layout\n"
            "try:\n    tcj.ops.matmul(1, 2)\nexcept ImportError as e:\n    print('ok', e)\n")
    from conftest import subprocess_env
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=subprocess_env())
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok") and "needs torch" in r.stdout


def test_ops_check_devices_and_name_the_tensor():
    torch = _torch()
    from tcj import ops
    x = torch.zeros(4, 8)
    with pytest.raises(ValueError, match="x: on cpu; tcj runs on CUDA tensors"):
        ops.linear_into(torch.zeros(4, 16), x, torch.zeros(16, 8))
    with pytest.raises(ValueError, match="weight: strides"):
        ops.linear(x, torch.zeros(16, 16)[:, ::2])


def _launched(monkeypatch, torch):
    """Routes _calls.launch's call to a list instead of the library (CPU tensors as if on
    device 0), on its Python path (test_cpu_fastcall.py checks that _fastcall's is the same);
    returns the list of (device index, descriptor bytes, stream)."""
    from tcj import _calls, _lib
    calls = []
    monkeypatch.setattr(_calls, "_fast", None)
    monkeypatch.setattr(_calls, "_engine_address", lambda index: 0xE000)
    monkeypatch.setattr(_calls, "_device", lambda named: torch.device("cuda", 0))
    monkeypatch.setattr(_calls, "_current_stream", lambda index: 77)
    monkeypatch.setattr(_lib, "new_desc", lambda: _lib.GemmDesc(alpha=1.0, alpha_f64=1.0))
    monkeypatch.setattr(_lib, "gemm_ex", lambda i, d, s: calls.append((i, bytes(d), s)))
    monkeypatch.setattr(_calls, "_plans", {})
    return calls


def _fresh(build):
    """The descriptor of build's plan on the tensors' real addresses, built without the cache."""
    from tcj import _calls, _lib
    def real(name, t):  # _calls.info leaves CPU tensors' addresses 0
        return None if t is None else _calls.info(name, t)._replace(ptr=t.data_ptr())
    d = _lib.new_desc()
    _calls._apply(d, build(real), [])
    return bytes(d)


def test_cached_plans_launch_what_a_fresh_plan_does(monkeypatch):
    torch = _torch()
    from tcj import _calls, _layout as L
    calls = _launched(monkeypatch, torch)
    bf = torch.bfloat16
    for trial in range(2):  # the second trial hits the cache with other tensors
        x = torch.randn(3, 5, 64, dtype=bf)[:, 1:]        # a strided batch of rows
        w = torch.randn(48, 64, dtype=bf)
        bias = torch.randn(96, dtype=bf)[48:]               # a view: its address is inside
        d = torch.empty(3, 4, 48, dtype=bf)
        _calls.linear_into(d, x, w, bias, "gelu")
        want = _fresh(lambda info: L.plan_linear(info("x", x), info("weight", w),
                      info("out", d), bias=info("bias", bias), act="gelu"))
        assert calls[-1] == (0, want, 77), f"trial {trial}: the cached linear descriptor differs"
        a = torch.randn(70, 32, dtype=bf)
        wg = torch.randn(4, 16, 32, dtype=bf).transpose(1, 2)
        offs = torch.tensor([5, 5, 40, 70], dtype=torch.int32)
        rs = torch.rand(70)
        gat = torch.randint(0, 70, (70,), dtype=torch.int32)
        out = torch.empty(70, 16, dtype=bf)
        _calls.grouped_mm_into(out, a, wg, offs=offs, row_scale=rs, gather=gat, activation="relu")
        want = _fresh(lambda info: L.plan_grouped(
            info("a", a), info("b", wg), info("out", out), offs=info("offs", offs),
            row_scale=info("row_scale", rs), gather=info("gather", gat), gather_rows=70,
            act="relu", counts=None, bias=None, rows_hint=0, scale_a=None, scale_b=None,
            scale_mode=None, alpha=1.0))
        assert calls[-1][1] == want, f"trial {trial}: the cached grouped descriptor differs"
        comb = torch.zeros(9, 16)  # the MoE combine: rows added into 9 token rows
        tok = torch.randint(0, 9, (70,), dtype=torch.int32)
        _calls.grouped_mm_into(comb, a, wg, offs=offs, row_scale=rs, scatter=tok,
                               scatter_mode="add")
        want = _fresh(lambda info: L.plan_grouped(
            info("a", a), info("b", wg), info("out", comb), offs=info("offs", offs),
            row_scale=info("row_scale", rs), scatter=info("scatter", tok), scatter_mode="add",
            act="none"))
        assert calls[-1][1] == want, f"trial {trial}: the cached scatter descriptor differs"
        c = torch.randn(2, 7, 9, dtype=torch.float32)
        am, bm = torch.randn(2, 7, 12, dtype=bf), torch.randn(12, 9, dtype=bf)
        dm = torch.empty(2, 7, 9, dtype=torch.float32)
        _calls.matmul_into(dm, am, bm, c=c, alpha=0.5, beta=2.0)
        want = _fresh(lambda info: L.plan_matmul(
            info("a", am), info("b", bm), info("out", dm), c=info("c", c), bias=None,
            act="none", alpha=0.5, beta=2.0))
        assert calls[-1][1] == want, f"trial {trial}: the cached matmul descriptor differs"
    assert len(_calls._plans) == 4  # one plan per layout, reused by the second trial


def test_linear_function_records_what_its_backward_reads(monkeypatch):
    """The autograd.Function of recorded eager linear calls (forward takes ctx: no per-call
    signature binding): one launch, and the node saves x, weight, bias and the scalars."""
    torch = _torch()
    from tcj import _torch as T
    calls = _launched(monkeypatch, torch)
    x = torch.randn(4, 8, requires_grad=True)
    w = torch.randn(6, 8, requires_grad=True)
    b = torch.randn(6, requires_grad=True)
    y = T.LinearFunction.apply(x, w, b, "gelu", None, "tf32")
    assert tuple(y.shape) == (4, 6) and y.requires_grad and len(calls) == 1
    node = y.grad_fn
    assert type(node).__name__ == "LinearFunctionBackward"
    assert [t.data_ptr() for t in node.saved_tensors] == [x.data_ptr(), w.data_ptr(), b.data_ptr()]
    assert node.args == ("gelu", torch.float32, "tf32")


def test_a_plan_built_on_one_tensor_twice_takes_two_later(monkeypatch):
    """matmul(x, x) then matmul(x, y) of the same layout: the cached plan sends each operand's
    own address to its field (a plan keyed by tensor identity sent y's to both)."""
    torch = _torch()
    from tcj import _calls, _lib
    calls = _launched(monkeypatch, torch)
    x, y = torch.randn(8, 8), torch.randn(8, 8)
    _calls.matmul_into(torch.empty(8, 8), x, x)
    _calls.matmul_into(torch.empty(8, 8), x, y)
    d = _lib.GemmDesc.from_buffer_copy(calls[-1][1])
    assert (d.a or 0, d.b or 0) == (x.data_ptr(), y.data_ptr())
    assert len(_calls._plans) == 1


def test_b_as_a_list_of_tensors_fills_the_pointer_array(monkeypatch):
    """grouped_mm(a, [B_0, ..., B_G-1]): b is NULL, group_b_ptrs the address array, the layout
    (op_b, ldb) one group's; lists of mixed layouts and lists with b_ptrs are refused."""
    torch = _torch()
    from tcj import _calls, _lib, ops
    calls = _launched(monkeypatch, torch)
    made = []

    def fake_pointer_array(bs):
        made.append([t.data_ptr() for t in bs])
        return torch.tensor(made[-1], dtype=torch.int64)
    monkeypatch.setattr(_calls, "pointer_array", fake_pointer_array)
    monkeypatch.setattr(ops, "_eager", lambda *t: True)
    bf = torch.bfloat16
    a = torch.randn(40, 32, dtype=bf)
    ws = [torch.randn(16, 32, dtype=bf) for _ in range(3)]
    offs = torch.tensor([10, 10, 40], dtype=torch.int32)
    out = ops.grouped_mm(a, [w.t() for w in ws], offs=offs)
    assert tuple(out.shape) == (40, 16) and made[-1] == [w.data_ptr() for w in ws]
    d = _lib.GemmDesc.from_buffer_copy(calls[-1][1])
    assert not d.b and d.group_b_ptrs and d.stride_b == 0 and d.op_b == _lib.Op.T and d.ldb == 32
    assert d.group_count == 3 and (d.m, d.n, d.k) == (40, 16, 32)
    ptrs = torch.tensor(made[-1], dtype=torch.int64)
    ops.grouped_mm(a, ws[0].t(), offs=offs, b_ptrs=ptrs)  # the caller's own array
    assert _lib.GemmDesc.from_buffer_copy(calls[-1][1]).group_b_ptrs == ptrs.data_ptr()
    with pytest.raises(ValueError, match=r"b\[1\]: shape"):
        ops.grouped_mm(a, [ws[0].t(), ws[1]], offs=offs)
    with pytest.raises(ValueError, match="not both"):
        ops.grouped_mm(a, [w.t() for w in ws], offs=offs, b_ptrs=ptrs)
    with pytest.raises(ValueError, match="3 addresses for 2 groups"):
        ops.grouped_mm(a, [w.t() for w in ws], offs=offs[1:])


def test_compute_keyword_sets_the_descriptor_and_keys_the_plan(monkeypatch):
    torch = _torch()
    from tcj import _calls, _lib
    calls = _launched(monkeypatch, torch)
    x, w = torch.randn(4, 8), torch.randn(6, 8)
    for name, member in ((None, _lib.Compute.DEFAULT), ("tf32", _lib.Compute.F32_FAST_TF32),
                         ("3xTF32", _lib.Compute.F32_3XTF32), ("f32", _lib.Compute.F32)):
        _calls.linear_into(torch.empty(4, 6), x, w, compute=name)
        assert _lib.GemmDesc.from_buffer_copy(calls[-1][1]).compute == member, name
        _calls.matmul_into(torch.empty(4, 6), x, w.t(), compute=name)
        assert _lib.GemmDesc.from_buffer_copy(calls[-1][1]).compute == member, name
    assert len(_calls._plans) == 8  # the compute mode is part of each plan's key
    with pytest.raises(ValueError, match="compute 'fp16'"):
        _calls.linear_into(torch.empty(4, 6), x, w, compute="fp16")
    with pytest.raises(ValueError, match="compute 'bad'"):
        __import__("tcj.ops").ops.matmul(x, w.t(), compute="bad")


def test_a_plan_is_per_layout_and_scalars(monkeypatch):
    torch = _torch()
    from tcj import _calls
    _launched(monkeypatch, torch)
    bf = torch.bfloat16
    x, w = torch.randn(4, 8, dtype=bf), torch.randn(6, 8, dtype=bf)
    _calls.linear_into(torch.empty(4, 6, dtype=bf), x, w)
    _calls.linear_into(torch.empty(4, 6, dtype=bf), x, w, activation="relu")   # other scalar
    _calls.linear_into(torch.empty(4, 6, dtype=bf), x, w.t().contiguous().t())  # other strides
    _calls.linear_into(torch.empty(4, 6, dtype=bf), x, w)                      # cached
    assert len(_calls._plans) == 3
    with pytest.raises(ValueError, match="weight"):  # checks run before anything is kept
        _calls.linear_into(torch.empty(4, 6, dtype=bf), x, torch.randn(6, 9, dtype=bf))
    assert len(_calls._plans) == 3


@pytest.mark.parametrize("case", ["linear", "linear_swiglu", "matmul_batch", "matmul_bcast",
                                  "grouped", "grouped_masked", "grouped_k", "scaled"])
def test_fake_implementations_match_the_output_contract(case):
    torch = _torch()
    from tcj import ops  # noqa: F401
    import tcj._torch  # noqa: F401
    t = torch.ops.tcj
    m = dict(device="meta")
    bf = torch.bfloat16
    if case == "linear":
        y = t.linear(torch.empty(2, 3, 64, dtype=bf, **m), torch.empty(32, 64, dtype=bf, **m),
                     None, "none", torch.float32)
        want = ((2, 3, 32), torch.float32)
    elif case == "linear_swiglu":
        y = t.linear(torch.empty(5, 64, dtype=bf, **m), torch.empty(64, 64, dtype=bf, **m),
                     torch.empty(64, dtype=bf, **m), "swiglu", None)
        want = ((5, 32), bf)
    elif case == "matmul_batch":
        y = t.matmul(torch.empty(4, 8, 16, **m).mT, torch.empty(4, 8, 32, **m), None, None,
                     "none", 1.0, 0.0, None, None, 0)
        want = ((4, 16, 32), torch.float32)
    elif case == "matmul_bcast":
        y = t.matmul(torch.empty(3, 1, 8, 16, **m), torch.empty(5, 16, 4, **m), None, None,
                     "relu", 1.0, 0.0, torch.float16, None, 0)
        want = ((3, 5, 8, 4), torch.float16)
    elif case == "grouped":
        y = t.grouped_mm(torch.empty(100, 64, dtype=bf, **m),
                         torch.empty(8, 256, 64, dtype=bf, **m).transpose(1, 2),
                         torch.empty(8, dtype=torch.int32, **m), None, None, "swiglu", None,
                         None, 0, 0, None, None, None, None)
        want = ((100, 128), bf)
    elif case == "grouped_masked":
        y = t.grouped_mm(torch.empty(8, 16, 64, dtype=bf, **m), torch.empty(8, 64, 32, dtype=bf, **m),
                         None, torch.empty(8, dtype=torch.int32, **m), None, "none", None, None,
                         0, 0, None, None, None, torch.float32)
        want = ((8, 16, 32), torch.float32)
    elif case == "grouped_k":
        y = t.grouped_mm(torch.empty(300, 32, dtype=bf, **m).t(), torch.empty(300, 64, dtype=bf, **m),
                         torch.empty(6, dtype=torch.int64, **m), None, None, "none", None, None,
                         0, 0, None, None, None, None)
        want = ((6, 32, 64), bf)
    else:
        e4 = torch.float8_e4m3fn
        y = t.scaled_mm(torch.empty(64, 128, dtype=e4, **m), torch.empty(32, 128, dtype=e4, **m).t(),
                        torch.empty(1, **m), torch.empty(1, **m), None, None, None, None, False, None)
        want = ((64, 32), bf)
    ref = torch.empty(want[0], dtype=want[1], device="meta")
    assert (tuple(y.shape), y.dtype, y.stride()) == (want[0], want[1], ref.stride())


def test_torch_compile_fullgraph_traces_linear_and_its_backward():
    torch = _torch()
    import tcj.ops as ops
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    def f(x, w, b):
        h = ops.linear(x, w, b, activation="silu", compute="tf32")
        h = ops.matmul(h, w, compute="3xtf32")
        return torch.ops.tcj.linear(h, w, None, "none", None).sum()

    x = torch.empty(4, 64, device="meta", requires_grad=True)
    w = torch.empty(32, 64, device="meta", requires_grad=True)
    b = torch.empty(32, device="meta", requires_grad=True)
    cf = torch.compile(f, fullgraph=True, backend=backend)
    y = cf(x, w, b)
    assert graphs and "tcj.linear" in str(graphs[0].graph)
    modes = [n.args[-1] for n in graphs[0].graph.nodes if n.op == "call_function"
             and str(n.target).startswith("tcj.")]
    assert modes[:2] == ["tf32", "3xtf32"]  # compute reaches the traced ops
    y.backward()
    assert x.grad.shape == x.shape and w.grad.shape == w.shape and b.grad.shape == b.shape


def test_aot_autograd_traces_grouped_mm_backward_on_meta():
    torch = _torch()
    import tcj.ops as ops

    def f(a, w, offs, bias):
        return ops.grouped_mm(a, w.transpose(1, 2), offs=offs, bias=bias, activation="gelu").sum()

    a = torch.empty(100, 64, device="meta", dtype=torch.bfloat16, requires_grad=True)
    w = torch.empty(4, 32, 64, device="meta", dtype=torch.bfloat16, requires_grad=True)
    bias = torch.empty(4, 32, device="meta", dtype=torch.bfloat16, requires_grad=True)
    offs = torch.empty(4, device="meta", dtype=torch.int32)
    y = torch.compile(f, fullgraph=True, backend="aot_eager")(a, w, offs, bias)
    y.backward()
    assert a.grad.shape == a.shape and w.grad.shape == w.shape and bias.grad.shape == bias.shape


def test_opcheck_schema_and_fake_of_linear():
    torch = _torch()
    import tcj._torch  # noqa: F401
    x = torch.empty(4, 64, device="meta")
    w = torch.empty(32, 64, device="meta")
    # test_schema and test_faketensor run only the fake implementation on meta inputs
    torch.library.opcheck(torch.ops.tcj.linear.default, (x, w, None, "relu", None),
                          test_utils=("test_schema", "test_faketensor"))


def test_swap_linear_keeps_parameters_and_outputs_on_cpu():
    torch = _torch()
    import tcj.nn
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(),
                                torch.nn.Sequential(torch.nn.Linear(16, 4, bias=False)))
    x = torch.randn(3, 8)
    want = model(x)
    params = [id(p) for p in model.parameters()]
    tcj.nn.swap_linear(model)
    assert isinstance(model[0], tcj.nn.Linear) and isinstance(model[2][0], tcj.nn.Linear)
    assert [id(p) for p in model.parameters()] == params
    assert torch.equal(model(x), want)
    lone = tcj.nn.swap_linear(torch.nn.Linear(2, 2))
    assert isinstance(lone, tcj.nn.Linear)
    only_first = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 2))
    tcj.nn.swap_linear(only_first, filter=lambda name, mod: name == "0")
    assert type(only_first[0]) is tcj.nn.Linear and type(only_first[1]) is torch.nn.Linear


def test_interop_wraps_dlpack_producers_and_hands_back_torch_tensors():
    torch = _torch()
    from tcj import interop
    t = torch.arange(6.0).reshape(2, 3)

    class Producer:  # a foreign array: only the DLPack protocol
        def __dlpack__(self, **kw):
            return t.__dlpack__(**kw)

        def __dlpack_device__(self):
            return t.__dlpack_device__()

    seen = []

    @interop.accepts_arrays
    def op(a, b=None, scale=1):
        seen.append((type(a), type(b)))
        return a * 2

    out = op(Producer())
    assert seen == [(torch.Tensor, type(None))] and torch.equal(out, t * 2)
    op(t, b=Producer(), scale=2.0)  # a keyword array, beside scalars the wrapper passes as they are
    assert seen[-1] == (torch.Tensor, torch.Tensor)
    assert interop.as_torch(t) is t and interop.as_torch(None) is None
    with pytest.raises(TypeError, match="expected a torch tensor"):
        interop.as_torch(3)
