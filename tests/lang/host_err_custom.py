class ConfigError(Exception):
    pass

def check(cfg):
    if "size" not in cfg:
        raise ConfigError(f"missing key 'size' in {sorted(cfg)}")
    return cfg["size"]

print(check({"size": 4}))
check({"name": "x"})
