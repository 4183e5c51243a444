"""Padding helpers with flash_attn.bert_padding's names and return values: turn a padded batch
(batch, seqlen, ...) plus an attention mask into the packed varlen layout (total_tokens, ...) and back."""

import torch
import torch.nn.functional as F

__all__ = ["index_first_axis", "index_put_first_axis", "pad_input", "unpad_input"]


def index_first_axis(x, indices):
    """x[indices] along the first axis (autograd through torch's own index backward)."""
    return x.index_select(0, indices)


def index_put_first_axis(values, indices, first_axis_dim):
    """A zero tensor of first_axis_dim rows with values written at rows indices."""
    out = values.new_zeros((first_axis_dim,) + tuple(values.shape[1:]))
    return out.index_copy(0, indices, values)


def unpad_input(hidden_states, attention_mask, unused_mask=None):
    """hidden_states (batch, seqlen, ...), attention_mask (batch, seqlen) bool/int, 1 = a real token;
    unused_mask (optional, same shape): tokens that are allocated but unused (kept in the packed
    tensor, not counted in seqused).

    Returns (hidden_unpad (total, ...), indices (total,) into the flattened batch*seqlen tokens,
    cu_seqlens int32 (batch + 1), max_seqlen int, seqused int32 (batch,))."""
    all_masks = attention_mask.bool() if unused_mask is None else attention_mask.bool() | unused_mask.bool()
    seqlens = all_masks.sum(dim=-1, dtype=torch.int32)
    seqused = attention_mask.bool().sum(dim=-1, dtype=torch.int32)
    indices = torch.nonzero(all_masks.flatten(), as_tuple=False).flatten()
    max_seqlen = int(seqlens.max().item()) if seqlens.numel() > 0 else 0
    cu_seqlens = F.pad(torch.cumsum(seqlens, dim=0, dtype=torch.int32), (1, 0))
    flat = hidden_states.reshape((-1,) + tuple(hidden_states.shape[2:]))
    return index_first_axis(flat, indices), indices, cu_seqlens, max_seqlen, seqused


def pad_input(hidden_states, indices, batch, seqlen):
    """The inverse of unpad_input: (total, ...) -> (batch, seqlen, ...), zeros at padded positions."""
    out = index_put_first_axis(hidden_states, indices, batch * seqlen)
    return out.reshape((batch, seqlen) + tuple(hidden_states.shape[1:]))
