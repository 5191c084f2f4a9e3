"""Semi-supervised node classification on a random stochastic-block-model graph."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from model import GNN


@dataclass
class GraphData:
    x: torch.Tensor
    edge_index: torch.Tensor
    y: torch.Tensor
    train_mask: torch.Tensor
    val_mask: torch.Tensor
    test_mask: torch.Tensor

    @property
    def num_nodes(self) -> int:
        return self.x.size(0)


def random_sbm_graph(num_nodes: int, num_classes: int, num_features: int,
                     p_in: float = 0.1, p_out: float = 0.04, seed: int = 0) -> GraphData:
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, num_classes, (num_nodes,), generator=g)
    same = y.unsqueeze(0) == y.unsqueeze(1)
    probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = torch.rand(num_nodes, num_nodes, generator=g) < probs
    adj = torch.triu(adj, diagonal=1)
    adj = adj | adj.t()  # undirected
    edge_index = adj.nonzero().t().contiguous()

    # class-dependent feature means plus noise
    centers = torch.randn(num_classes, num_features, generator=g)
    x = centers[y] + 2.5 * torch.randn(num_nodes, num_features, generator=g)

    perm = torch.randperm(num_nodes, generator=g)
    n_train, n_val = int(0.3 * num_nodes), int(0.2 * num_nodes)
    masks = [torch.zeros(num_nodes, dtype=torch.bool) for _ in range(3)]
    masks[0][perm[:n_train]] = True
    masks[1][perm[n_train:n_train + n_val]] = True
    masks[2][perm[n_train + n_val:]] = True
    return GraphData(x, edge_index, y, *masks)


def train_step(model, optimizer, data: GraphData, mask: torch.Tensor):
    model.train()
    optimizer.zero_grad()
    logits = model(data.x, data.edge_index)
    loss = F.cross_entropy(logits[mask], data.y[mask])
    loss.backward()
    optimizer.step()
    return loss


@torch.no_grad()
def evaluate(model, data: GraphData) -> dict:
    model.eval()
    logits = model(data.x, data.edge_index)
    pred = logits.argmax(dim=-1)
    accs = {}
    for name in ("train", "val", "test"):
        mask = getattr(data, f"{name}_mask")
        accs[name] = (pred[mask] == data.y[mask]).float().mean().item()
    return accs


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--nodes", type=int, default=60)
    p.add_argument("--features", type=int, default=16)
    p.add_argument("--classes", type=int, default=3)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--layer-type", default="sage", choices=["gcn", "sage"])
    p.add_argument("--aggr", default="mean")
    p.add_argument("--activation", default="gelu")
    p.add_argument("--dropout", type=float, default=0.3)
    p.add_argument("--lr", type=float, default=1e-2)
    p.add_argument("--weight-decay", type=float, default=5e-4)
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--eval-every", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    data = random_sbm_graph(args.nodes, args.classes, args.features, seed=args.seed)
    print(f"graph: {data.num_nodes} nodes, {data.edge_index.size(1)} directed edges")

    model = GNN(
        args.features, args.hidden, args.classes,
        num_layers=args.layers, layer_type=args.layer_type, aggr=args.aggr,
        activation=args.activation, dropout=args.dropout,
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    step_fn = torch.compile(train_step)

    best_val = 0.0
    for epoch in range(1, args.epochs + 1):
        loss = step_fn(model, optimizer, data, data.train_mask)
        if epoch % args.eval_every == 0:
            accs = evaluate(model, data)
            best_val = max(best_val, accs["val"])
            print(f"epoch {epoch:3d} | loss {loss.item():.4f} | "
                  f"train {accs['train']:.3f} | val {accs['val']:.3f} | test {accs['test']:.3f}")

    print(f"best val acc {best_val:.3f}")
    emb = model.embed(data.x, data.edge_index)
    print(f"embedding norm {emb.norm(dim=-1).mean().item():.3f}")


if __name__ == "__main__":
    main()
