import torch


def torch_twin(amounts, opening):
    balance = opening + torch.cumsum(amounts, dim=0)
    peak = torch.cummax(balance, dim=0).values.clamp(min=opening)
    drawdown = torch.cummax(peak - balance, dim=0).values
    return balance, drawdown
