# SPDX-License-Identifier: Apache-2.0
# The examples in python/examples without a GPU: each imports without torch (torch is imported in
# main()), its argument parser's defaults and options parse, `--help` exits 0 (with torch blocked
# too), and with torch but no CUDA device main() refuses with exit status 2.
import importlib.util
import os
import subprocess
import sys

import pytest

from conftest import REPO, subprocess_env

EXAMPLES = os.path.join(REPO, "python", "examples")
NAMES = ["llama_block", "moe_layer"]

# Runs an example's --help with torch made unimportable.
_HELP_WITHOUT_TORCH = r"""
import runpy, sys
class _NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("torch is blocked by this test")
sys.meta_path.insert(0, _NoTorch())
sys.argv = [sys.argv[1], "--help"]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def path_of(name):
    return os.path.join(EXAMPLES, name + ".py")


def load(name):
    spec = importlib.util.spec_from_file_location("tcj_example_" + name, path_of(name))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_llama_block_arguments():
    parse = load("llama_block").build_parser().parse_args
    a = parse([])
    assert (a.layers, a.mode, a.context, a.iters) == (4, "both", 1024, 50)
    assert (a.seed, a.device, a.jit) == (0, "cuda", os.environ.get("TCJ_JIT") or "sync")
    assert a.decode_batches == [1, 8, 16, 32, 64]
    assert a.prefill_tokens == [512, 1024, 2048, 4096]
    assert not a.check_only
    a = parse(["--layers", "2", "--mode", "decode", "--decode-batches", "3,5", "--context", "64",
               "--prefill-tokens", "128", "--iters", "7", "--check-only", "--seed", "9",
               "--device", "cuda:1", "--jit", "async"])
    assert (a.layers, a.mode, a.decode_batches) == (2, "decode", [3, 5])
    assert (a.context, a.prefill_tokens) == (64, [128])
    assert (a.iters, a.check_only, a.seed, a.device, a.jit) == (7, True, 9, "cuda:1", "async")


def test_moe_layer_arguments():
    parse = load("moe_layer").build_parser().parse_args
    a = parse([])
    assert a.tokens == [1, 16, 64, 512, 2048, 8192]
    assert (a.no_gather, a.check_only, a.iters, a.seed, a.device) == (False, False, 50, 0, "cuda")
    a = parse(["--tokens", "4,32", "--no-gather", "--check-only", "--iters", "3", "--seed", "1"])
    assert (a.tokens, a.no_gather, a.check_only, a.iters, a.seed) == ([4, 32], True, True, 3, 1)
    assert (a.combine, parse(["--combine", "add"]).combine) == ("store", "add")


@pytest.mark.parametrize("name", NAMES)
def test_examples_import_without_torch(name):
    assert load(name).torch is None  # torch is imported by main(), not at import


@pytest.mark.parametrize("name", NAMES)
def test_help(name):
    r = subprocess.run([sys.executable, path_of(name), "--help"], capture_output=True, text=True,
                       env=subprocess_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage:") and "--check-only" in r.stdout


@pytest.mark.parametrize("name", NAMES)
def test_help_without_torch(name):
    r = subprocess.run([sys.executable, "-c", _HELP_WITHOUT_TORCH, path_of(name)],
                       capture_output=True, text=True, env=subprocess_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    assert "usage:" in r.stdout


@pytest.mark.parametrize("name", NAMES)
def test_refuses_without_cuda(name):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    if torch.cuda.is_available():
        pytest.skip("a CUDA device is present: this checks the refusal without one")
    r = subprocess.run([sys.executable, path_of(name), "--check-only"], capture_output=True,
                       text=True, env=subprocess_env(), timeout=300)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "needs a CUDA GPU" in r.stderr
