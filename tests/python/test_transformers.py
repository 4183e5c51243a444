"""A real client: tiny Llama and GPT-2 models from transformers (built from configs, random
weights, nothing downloaded) with our attention registered through transformers' attention
interface: logits match the model's own sdpa attention, padded batches too, and a training step runs."""

import pytest
import torch

transformers = pytest.importorskip("transformers", reason="transformers is not installed in this environment")

import flashattn.hf  # noqa: E402
from conftest import DEVICES  # noqa: E402


def _configs():
    llama = transformers.LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                     num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)
    gpt2 = transformers.GPT2Config(vocab_size=128, bos_token_id=0, eos_token_id=0, n_embd=64, n_layer=2, n_head=4, n_positions=128,
                                   attn_pdrop=0.0, resid_pdrop=0.0, embd_pdrop=0.0)
    return {"llama": (llama, transformers.LlamaForCausalLM), "gpt2": (gpt2, transformers.GPT2LMHeadModel)}


def _model(name, impl, device, dtype=torch.float32):
    config, cls = _configs()[name]
    torch.manual_seed(0)
    return cls._from_config(config, attn_implementation=impl).to(device=device, dtype=dtype)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", ["llama", "gpt2"])
def test_logits_match_sdpa_and_training_step(device, name):
    """CPU: fp32, logits within 1e-4 of sdpa's. CUDA (fp16/bf16 only): bf16, and our error against
    the fp32 sdpa model is at most 2x sdpa's own bf16 error (+ a floor): the tolerance rule."""
    flashattn.hf.register()
    calls = []

    def counting(*args, **kwargs):
        calls.append(1)
        return flashattn.hf.attention_forward(*args, **kwargs)

    transformers.AttentionInterface.register(flashattn.hf.NAME, counting)
    dtype = torch.float32 if device == "cpu" else torch.bfloat16
    ours, sdpa = _model(name, flashattn.hf.NAME, device, dtype), _model(name, "sdpa", device, dtype)
    exact = _model(name, "sdpa", device, torch.float32)
    assert ours.config._attn_implementation == flashattn.hf.NAME
    tokens = torch.randint(0, 128, (2, 37), device=device)
    mask = torch.ones_like(tokens)
    mask[1, :9] = 0  # left padding in the second sequence: the varlen path
    with torch.no_grad():
        for m in (None, mask):
            valid = slice(None) if m is None else m.bool()
            a = ours(tokens, attention_mask=m).logits[valid].float()
            b = sdpa(tokens, attention_mask=m).logits[valid].float()
            ref = exact(tokens, attention_mask=m).logits[valid]
            if dtype == torch.float32:
                assert (a - b).abs().max().item() < 1e-4, "logits differ from sdpa"
            else:
                assert (a - ref).abs().max().item() <= 2 * (b - ref).abs().max().item() + 1e-3
    assert len(calls) == 2 * 2, "our attention ran in every layer"
    opt = torch.optim.AdamW(ours.parameters(), lr=1e-3)
    ours.train()
    loss = ours(tokens, labels=tokens).loss
    loss.backward()
    assert all(p.grad is None or torch.isfinite(p.grad).all() for p in ours.parameters())
    ref = sdpa(tokens, labels=tokens).loss
    assert abs(loss.item() - ref.item()) < (1e-4 if dtype == torch.float32 else 5e-2)
    opt.step()
    assert torch.isfinite(ours(tokens, labels=tokens).loss)
