"""Synthetic molecule-like graphs and a concatenating collate function."""
import torch


def random_molecule(gen, node_feat_dim, num_edge_types):
    n = int(torch.randint(5, 15, (1,), generator=gen))
    x = torch.randn(n, node_feat_dim, generator=gen)
    # spanning chain plus a few random "ring" bonds
    src = list(range(n - 1))
    dst = list(range(1, n))
    extra = int(torch.randint(0, n // 2 + 1, (1,), generator=gen))
    for _ in range(extra):
        a, b = torch.randint(0, n, (2,), generator=gen).tolist()
        if a != b:
            src.append(a)
            dst.append(b)
    src_t = torch.tensor(src, dtype=torch.long)
    dst_t = torch.tensor(dst, dtype=torch.long)
    edge_index = torch.stack([torch.cat([src_t, dst_t]), torch.cat([dst_t, src_t])])
    half = torch.randint(0, num_edge_types, (src_t.numel(),), generator=gen)
    edge_type = torch.cat([half, half])
    # target: a smooth function of structure and features
    deg = torch.zeros(n).index_add_(0, edge_index[0], torch.ones(edge_index.size(1)))
    bond_energy = (edge_type.float() + 1.0).sum() / edge_index.size(1)
    y = 0.1 * x[:, 0].sum() + 0.05 * (deg ** 2).mean() + bond_energy + 0.02 * n
    return {"x": x, "edge_index": edge_index, "edge_type": edge_type, "y": y.reshape(1)}


def make_dataset(num_graphs, node_feat_dim, num_edge_types, seed):
    gen = torch.Generator().manual_seed(seed)
    return [random_molecule(gen, node_feat_dim, num_edge_types) for _ in range(num_graphs)]


def collate(graphs):
    xs, eis, ets, ys, batch = [], [], [], [], []
    offset = 0
    for i, g in enumerate(graphs):
        n = g["x"].size(0)
        xs.append(g["x"])
        eis.append(g["edge_index"] + offset)
        ets.append(g["edge_type"])
        ys.append(g["y"])
        batch.append(torch.full((n,), i, dtype=torch.long))
        offset += n
    return {
        "x": torch.cat(xs),
        "edge_index": torch.cat(eis, dim=1),
        "edge_type": torch.cat(ets),
        "batch": torch.cat(batch),
        "y": torch.cat(ys),
        "num_graphs": len(graphs),
    }


def batches(dataset, batch_size, shuffle, gen=None):
    order = torch.randperm(len(dataset), generator=gen).tolist() if shuffle else list(range(len(dataset)))
    for i in range(0, len(order), batch_size):
        yield collate([dataset[j] for j in order[i:i + batch_size]])
