// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Replica of the observable ERC-20 behaviour of USDT on Arbitrum One (0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9) and
// Polygon PoS (0xc2132D05D31c914a87C6611C10748AEb04B58e8F). Both addresses now run Tether's USDT0 implementation
// (TetherTokenV2 + OFT extension, built on OpenZeppelin 4 ERC20Upgradeable): 6 decimals, transfer/transferFrom/approve
// return bool, OpenZeppelin 4 revert strings, owner-controlled mint and a block list. Name and symbol are constructor
// arguments because they differ per chain. Cross-chain (LayerZero OFT) and EIP-3009/EIP-2612 signature paths are not
// replicated: the checkout never uses them.
contract Usdt0Token {
    string public name;
    string public symbol;
    address public owner;

    uint256 private _totalSupply;
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    mapping(address => bool) public isBlocked;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event Mint(address indexed destination, uint256 amount);
    event Redeem(uint256 amount);
    event BlockPlaced(address indexed user);
    event BlockReleased(address indexed user);

    modifier onlyOwner() {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        _;
    }

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    function decimals() public pure returns (uint8) {
        return 6;
    }

    function totalSupply() public view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address account) public view returns (uint256) {
        return _balances[account];
    }

    function allowance(address holder, address spender) public view returns (uint256) {
        return _allowances[holder][spender];
    }

    function transfer(address to, uint256 amount) public returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) public returns (bool) {
        _approve(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) public returns (bool) {
        uint256 current = _allowances[from][msg.sender];
        if (current != type(uint256).max) {
            require(current >= amount, "ERC20: insufficient allowance");
            unchecked {
                _approve(from, msg.sender, current - amount);
            }
        }
        _transfer(from, to, amount);
        return true;
    }

    function increaseAllowance(address spender, uint256 addedValue) public returns (bool) {
        _approve(msg.sender, spender, _allowances[msg.sender][spender] + addedValue);
        return true;
    }

    function decreaseAllowance(address spender, uint256 subtractedValue) public returns (bool) {
        uint256 current = _allowances[msg.sender][spender];
        require(current >= subtractedValue, "ERC20: decreased allowance below zero");
        unchecked {
            _approve(msg.sender, spender, current - subtractedValue);
        }
        return true;
    }

    function mint(address destination, uint256 amount) public onlyOwner {
        require(destination != address(0), "ERC20: mint to the zero address");
        _totalSupply += amount;
        _balances[destination] += amount;
        emit Transfer(address(0), destination, amount);
        emit Mint(destination, amount);
    }

    function redeem(uint256 amount) public onlyOwner {
        uint256 balance = _balances[owner];
        require(balance >= amount, "ERC20: burn amount exceeds balance");
        unchecked {
            _balances[owner] = balance - amount;
            _totalSupply -= amount;
        }
        emit Transfer(owner, address(0), amount);
        emit Redeem(amount);
    }

    function addToBlockedList(address user) public onlyOwner {
        isBlocked[user] = true;
        emit BlockPlaced(user);
    }

    function removeFromBlockedList(address user) public onlyOwner {
        isBlocked[user] = false;
        emit BlockReleased(user);
    }

    function transferOwnership(address newOwner) public onlyOwner {
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function _transfer(address from, address to, uint256 amount) private {
        require(from != address(0), "ERC20: transfer from the zero address");
        require(to != address(0), "ERC20: transfer to the zero address");
        require(!isBlocked[from], "TetherToken: from is blocked");
        require(to != address(this), "TetherToken: transfer to the contract address");
        uint256 fromBalance = _balances[from];
        require(fromBalance >= amount, "ERC20: transfer amount exceeds balance");
        unchecked {
            _balances[from] = fromBalance - amount;
        }
        _balances[to] += amount;
        emit Transfer(from, to, amount);
    }

    function _approve(address holder, address spender, uint256 amount) private {
        require(holder != address(0), "ERC20: approve from the zero address");
        require(spender != address(0), "ERC20: approve to the zero address");
        _allowances[holder][spender] = amount;
        emit Approval(holder, spender, amount);
    }
}
