def torch_twin(cols, vals, x):
    return (vals * x[cols]).sum(dim=1)
