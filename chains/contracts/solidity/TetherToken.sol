// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Replica of the observable behaviour of Tether's Ethereum token (TetherToken, 0xdAC17F958D2ee523a2206206994597C13D831ec7,
// originally Solidity 0.4.17), rewritten for a current compiler. What callers notice is kept on purpose:
//   - transfer, transferFrom and approve return NO data (pre-ERC20-final ABI), so `returns (bool)` decoders fail;
//   - approve refuses to move a non-zero allowance to another non-zero value (set it to 0 first);
//   - an allowance of MAX_UINT is never decreased by transferFrom;
//   - decimals is a uint256 (6), name "Tether USD", symbol "USDT";
//   - arithmetic failures hit an invalid opcode (0.4 `assert`), which burns all gas given to the call;
//   - owner-only issue/redeem mint to and burn from the owner; pause and blacklist as on mainnet;
//   - msg.data length checks (onlyPayloadSize) on transfer, transferFrom and approve.
// The fee machinery (basisPointsRate, maximumFee) exists but stays 0, as on mainnet. Upgrade/deprecation
// forwarding is kept as state only: a deprecated replica refuses transfers instead of forwarding.
contract TetherToken {
    string public name;
    string public symbol;
    uint256 public decimals;
    uint256 public _totalSupply;
    address public owner;
    bool public paused;
    bool public deprecated;
    address public upgradedAddress;
    uint256 public basisPointsRate;
    uint256 public maximumFee;
    uint256 public constant MAX_UINT = type(uint256).max;

    mapping(address => uint256) public balances;
    mapping(address => mapping(address => uint256)) public allowed;
    mapping(address => bool) public isBlackListed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Issue(uint256 amount);
    event Redeem(uint256 amount);
    event Deprecate(address newAddress);
    event Params(uint256 feeBasisPoints, uint256 maxFee);
    event DestroyedBlackFunds(address _blackListedUser, uint256 _balance);
    event AddedBlackList(address _user);
    event RemovedBlackList(address _user);
    event Pause();
    event Unpause();

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    modifier whenNotPaused() {
        require(!paused);
        _;
    }

    modifier onlyPayloadSize(uint256 size) {
        require(!(msg.data.length < size + 4));
        _;
    }

    constructor(uint256 _initialSupply, string memory _name, string memory _symbol, uint256 _decimals) {
        owner = msg.sender;
        _totalSupply = _initialSupply;
        name = _name;
        symbol = _symbol;
        decimals = _decimals;
        balances[owner] = _initialSupply;
    }

    // --- SafeMath of solc 0.4: a failed assert is the invalid opcode -------------------------------------
    function _assert(bool ok) private pure {
        if (!ok) {
            assembly {
                invalid()
            }
        }
    }

    function _sub(uint256 a, uint256 b) private pure returns (uint256) {
        _assert(b <= a);
        unchecked {
            return a - b;
        }
    }

    function _add(uint256 a, uint256 b) private pure returns (uint256) {
        unchecked {
            uint256 c = a + b;
            _assert(c >= a);
            return c;
        }
    }

    function _fee(uint256 value) private view returns (uint256 fee) {
        fee = (value * basisPointsRate) / 10000;
        if (fee > maximumFee) fee = maximumFee;
    }

    // --- ERC20 without return values ------------------------------------------------------------------------
    function transfer(address _to, uint256 _value) public whenNotPaused onlyPayloadSize(2 * 32) {
        require(!isBlackListed[msg.sender]);
        require(!deprecated);
        uint256 fee = _fee(_value);
        uint256 sendAmount = _sub(_value, fee);
        balances[msg.sender] = _sub(balances[msg.sender], _value);
        balances[_to] = _add(balances[_to], sendAmount);
        if (fee > 0) {
            balances[owner] = _add(balances[owner], fee);
            emit Transfer(msg.sender, owner, fee);
        }
        emit Transfer(msg.sender, _to, sendAmount);
    }

    function transferFrom(address _from, address _to, uint256 _value) public whenNotPaused onlyPayloadSize(3 * 32) {
        require(!isBlackListed[_from]);
        require(!deprecated);
        uint256 _allowance = allowed[_from][msg.sender];
        uint256 fee = _fee(_value);
        if (_allowance < MAX_UINT) {
            allowed[_from][msg.sender] = _sub(_allowance, _value);
        }
        uint256 sendAmount = _sub(_value, fee);
        balances[_from] = _sub(balances[_from], _value);
        balances[_to] = _add(balances[_to], sendAmount);
        if (fee > 0) {
            balances[owner] = _add(balances[owner], fee);
            emit Transfer(_from, owner, fee);
        }
        emit Transfer(_from, _to, sendAmount);
    }

    function approve(address _spender, uint256 _value) public onlyPayloadSize(2 * 32) {
        require(!deprecated);
        // To change the approve amount you first have to reduce the addresses' allowance to zero.
        require(!((_value != 0) && (allowed[msg.sender][_spender] != 0)));
        allowed[msg.sender][_spender] = _value;
        emit Approval(msg.sender, _spender, _value);
    }

    function balanceOf(address who) public view returns (uint256) {
        return balances[who];
    }

    function allowance(address _owner, address _spender) public view returns (uint256 remaining) {
        return allowed[_owner][_spender];
    }

    function totalSupply() public view returns (uint256) {
        return _totalSupply;
    }

    // --- Owner operations -----------------------------------------------------------------------------------
    function issue(uint256 amount) public onlyOwner {
        unchecked {
            require(_totalSupply + amount > _totalSupply);
            require(balances[owner] + amount > balances[owner]);
        }
        balances[owner] += amount;
        _totalSupply += amount;
        emit Issue(amount);
    }

    function redeem(uint256 amount) public onlyOwner {
        require(_totalSupply >= amount);
        require(balances[owner] >= amount);
        _totalSupply -= amount;
        balances[owner] -= amount;
        emit Redeem(amount);
    }

    function setParams(uint256 newBasisPoints, uint256 newMaxFee) public onlyOwner {
        require(newBasisPoints < 20);
        require(newMaxFee < 50);
        basisPointsRate = newBasisPoints;
        maximumFee = newMaxFee * (10 ** decimals);
        emit Params(basisPointsRate, maximumFee);
    }

    function deprecate(address _upgradedAddress) public onlyOwner {
        deprecated = true;
        upgradedAddress = _upgradedAddress;
        emit Deprecate(_upgradedAddress);
    }

    function transferOwnership(address newOwner) public onlyOwner {
        if (newOwner != address(0)) owner = newOwner;
    }

    function pause() public onlyOwner {
        require(!paused);
        paused = true;
        emit Pause();
    }

    function unpause() public onlyOwner {
        require(paused);
        paused = false;
        emit Unpause();
    }

    function getOwner() external view returns (address) {
        return owner;
    }

    function getBlackListStatus(address _maker) external view returns (bool) {
        return isBlackListed[_maker];
    }

    function addBlackList(address _evilUser) public onlyOwner {
        isBlackListed[_evilUser] = true;
        emit AddedBlackList(_evilUser);
    }

    function removeBlackList(address _clearedUser) public onlyOwner {
        isBlackListed[_clearedUser] = false;
        emit RemovedBlackList(_clearedUser);
    }

    function destroyBlackFunds(address _blackListedUser) public onlyOwner {
        require(isBlackListed[_blackListedUser]);
        uint256 dirtyFunds = balances[_blackListedUser];
        balances[_blackListedUser] = 0;
        _totalSupply -= dirtyFunds;
        emit DestroyedBlackFunds(_blackListedUser, dirtyFunds);
    }
}
