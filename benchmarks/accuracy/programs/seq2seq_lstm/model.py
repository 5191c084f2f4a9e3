"""GRU encoder-decoder with additive (Bahdanau) attention."""

import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, enc_hid_dim, dec_hid_dim, dropout, pad_idx):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_idx)
        self.rnn = nn.GRU(emb_dim, enc_hid_dim, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(enc_hid_dim * 2, dec_hid_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src, src_lens):
        embedded = self.dropout(self.embedding(src))
        packed = pack_padded_sequence(embedded, src_lens.cpu(), batch_first=True, enforce_sorted=False)
        packed_out, hidden = self.rnn(packed)
        outputs, _ = pad_packed_sequence(packed_out, batch_first=True, total_length=src.size(1))
        # hidden: (2, B, H) -> combine last forward and backward states
        hidden = torch.tanh(self.fc(torch.cat((hidden[-2], hidden[-1]), dim=1)))
        return outputs, hidden


class BahdanauAttention(nn.Module):
    def __init__(self, enc_hid_dim, dec_hid_dim, attn_dim=None):
        super().__init__()
        attn_dim = attn_dim or dec_hid_dim
        self.W_enc = nn.Linear(enc_hid_dim * 2, attn_dim, bias=False)
        self.W_dec = nn.Linear(dec_hid_dim, attn_dim)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def forward(self, hidden, encoder_outputs, mask):
        # hidden: (B, dec_hid), encoder_outputs: (B, S, 2*enc_hid), mask: (B, S) True on real tokens
        energy = torch.tanh(self.W_enc(encoder_outputs) + self.W_dec(hidden).unsqueeze(1))
        scores = self.v(energy).squeeze(2)
        scores = scores.masked_fill(~mask, -1e10)
        return F.softmax(scores, dim=1)


class Decoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, enc_hid_dim, dec_hid_dim, dropout, attention):
        super().__init__()
        self.output_dim = vocab_size
        self.attention = attention
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(enc_hid_dim * 2 + emb_dim, dec_hid_dim, batch_first=True)
        self.fc_out = nn.Linear(enc_hid_dim * 2 + dec_hid_dim + emb_dim, vocab_size)
        self.dropout = nn.Dropout(dropout)

    def step(self, input, hidden, encoder_outputs, mask):
        """One decoding step. input: (B,) token ids, hidden: (B, dec_hid)."""
        embedded = self.dropout(self.embedding(input)).unsqueeze(1)  # (B, 1, E)
        a = self.attention(hidden, encoder_outputs, mask)  # (B, S)
        weighted = torch.bmm(a.unsqueeze(1), encoder_outputs)  # (B, 1, 2*enc_hid)
        rnn_input = torch.cat((embedded, weighted), dim=2)
        output, hidden = self.rnn(rnn_input, hidden.unsqueeze(0))
        prediction = self.fc_out(torch.cat((output, weighted, embedded), dim=2).squeeze(1))
        return prediction, hidden.squeeze(0), a


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, pad_idx, sos_idx, eos_idx):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.pad_idx = pad_idx
        self.sos_idx = sos_idx
        self.eos_idx = eos_idx

    def create_mask(self, src):
        return src != self.pad_idx

    def forward(self, src, src_lens, trg, teacher_forcing_ratio=0.5):
        """trg: (B, T) starting with <sos>. Returns logits (B, T, V); position 0 is left as zeros."""
        batch_size, max_len = trg.shape
        outputs = torch.zeros(batch_size, max_len, self.decoder.output_dim)
        encoder_outputs, hidden = self.encoder(src, src_lens)
        mask = self.create_mask(src)
        input = trg[:, 0]
        for t in range(1, max_len):
            output, hidden, _ = self.decoder.step(input, hidden, encoder_outputs, mask)
            outputs[:, t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            input = trg[:, t] if teacher_force else output.argmax(1)
        return outputs

    @torch.no_grad()
    def greedy_decode(self, src, src_lens, max_len=20):
        encoder_outputs, hidden = self.encoder(src, src_lens)
        mask = self.create_mask(src)
        input = torch.full((src.size(0),), self.sos_idx, dtype=torch.long)
        tokens, attentions = [], []
        finished = torch.zeros(src.size(0), dtype=torch.bool)
        for _ in range(max_len):
            output, hidden, attn = self.decoder.step(input, hidden, encoder_outputs, mask)
            input = output.argmax(1)
            tokens.append(input)
            attentions.append(attn)
            finished |= input == self.eos_idx
            if finished.all():
                break
        return torch.stack(tokens, dim=1), torch.stack(attentions, dim=1)
