"""HuggingFace transformers integration: our attention through transformers' attention-function
interface. After flashattn.hf.register(), build any model that uses ALL_ATTENTION_FUNCTIONS (Llama,
GPT-2, Mistral, ...) with attn_implementation="fa_cpp" (flashattn.hf.NAME):

    import flashattn.hf
    flashattn.hf.register()
    model = AutoModelForCausalLM.from_config(config, attn_implementation=flashattn.hf.NAME)

Padding masks take the varlen path (unpad, attend, pad), as transformers' flash_attention_2 does."""

import torch

from .bert_padding import pad_input, unpad_input
from .flash_attn_interface import flash_attn_func, flash_attn_varlen_func

# Not "flashattn": transformers treats every implementation name containing "flash" as a request
# for flash_attn / hub kernels (transformers.utils.generic.is_flash_attention_requested).
NAME = "fa_cpp"


def attention_forward(module, query, key, value, attention_mask, dropout=0.0, scaling=None, sliding_window=None,
                      softcap=None, is_causal=None, **kwargs):
    """transformers' attention signature: query (batch, heads, q_len, head_dim), key/value
    (batch, heads_kv, kv_len, head_dim); attention_mask None or the 2D (batch, kv_len) padding mask
    (flash_attention_mask). Returns (out (batch, q_len, heads, head_dim), None)."""
    if kwargs.get("s_aux") is not None:
        raise NotImplementedError("flashattn: attention sinks (s_aux) are not supported")
    causal = is_causal if is_causal is not None else getattr(module, "is_causal", True)
    # A single query token attends to the whole cache: causal (bottom-right aligned) is then a no-op.
    causal = bool(causal)
    window = (sliding_window - 1, 0 if causal else sliding_window - 1) if sliding_window else (-1, -1)
    # (batch, heads, seq, dim) -> (batch, seq, heads, dim): a view whose last dim stays contiguous.
    q, k, v = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)
    opts = dict(dropout_p=dropout, softmax_scale=scaling, causal=causal, window_size=window, softcap=softcap or 0.0)
    if attention_mask is None or attention_mask.dim() != 2:
        return flash_attn_func(q, k, v, **opts), None
    batch, q_len = q.shape[0], q.shape[1]
    kv_mask = attention_mask[:, -k.shape[1]:].bool()
    k_un, _, cu_k, max_k, _ = unpad_input(k, kv_mask)
    v_un = unpad_input(v, kv_mask)[0]
    q_un, q_idx, cu_q, max_q, _ = unpad_input(q, kv_mask[:, -q_len:])
    out = flash_attn_varlen_func(q_un, k_un, v_un, cu_q, cu_k, max_q, max_k, **opts)
    return pad_input(out, q_idx, batch, q_len), None


def register(name=NAME):
    """Registers the attention function and its mask function (the 2D padding mask, or None when
    nothing is padded) under `name`."""
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface, flash_attention_mask

    AttentionInterface.register(name, attention_forward)
    AttentionMaskInterface.register(name, flash_attention_mask)
    return name
